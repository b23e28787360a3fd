// Tests of output files: atomic replacement, temporary names that fit wherever the final name
// fits and never look like a profile, and errors (too long, out of memory, failed producer)
// that leave no temporary file and keep the previous content.
#include "core/dump/output_file.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <new>
#include <vector>

#include "core/dump/hatchet_writer.h"
#include "core/testing/alloc_counter.h"
#include "core/testing/test_util.h"

namespace proton {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/proton_output_file_test.XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> Entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
};

TEST_F(OutputFileTest, ReplacesTheTargetAndLeavesNothingElse) {
  ASSERT_TRUE(WriteFileAtomic(Path("p.hatchet"), "old").ok());
  ASSERT_TRUE(WriteFileAtomic(Path("p.hatchet"), "new").ok());
  EXPECT_EQ(test::ReadFile(Path("p.hatchet")), "new");
  EXPECT_EQ(Entries(), std::vector<std::string>{"p.hatchet"});
}

// While a file is being written, no directory entry may look like a profile: at most a hidden
// `.proton-*.tmp` (and the previous file).
TEST_F(OutputFileTest, NoProfileLikeEntryWhileWriting) {
  ASSERT_TRUE(WriteFileAtomic(Path("p.hatchet_msgpack"), "old").ok());
  {
    OutputFile file;
    ASSERT_TRUE(file.Open(Path("p.hatchet_msgpack")).ok());
    ASSERT_TRUE(file.Write("partial").ok());
    for (const std::string& name : Entries()) {
      if (name == "p.hatchet_msgpack") continue;
      EXPECT_EQ(name.rfind(".proton-", 0), 0u) << name;
      EXPECT_TRUE(name.size() > 4 && name.substr(name.size() - 4) == ".tmp") << name;
    }
  }  // destroyed without Commit: the old file stays, nothing else
  EXPECT_EQ(test::ReadFile(Path("p.hatchet_msgpack")), "old");
  EXPECT_EQ(Entries(), std::vector<std::string>{"p.hatchet_msgpack"});
}

// Every legal name length works in every format's suffix, up to NAME_MAX (255 on Linux file
// systems): the temporary name must not be longer than the final one.
TEST_F(OutputFileTest, NamesUpToNameMaxInEveryFormat) {
  for (std::string suffix : {".hatchet", ".hatchet_msgpack", ".chrome_trace", ".perfetto_trace"}) {
    for (size_t length = 236; length <= 255; ++length) {
      std::string name = std::string(length - suffix.size(), 'n') + suffix;
      SCOPED_TRACE(name.size());
      Status st = WriteFileAtomic(Path(name), "x");
      ASSERT_TRUE(st.ok()) << st.message();
      EXPECT_EQ(test::ReadFile(Path(name)), "x");
      fs::remove(Path(name));
    }
  }
  EXPECT_TRUE(Entries().empty());
}

TEST_F(OutputFileTest, NameLongerThanNameMaxIsOneClearError) {
  std::string name = std::string(256 - 8, 'n') + ".hatchet";
  Status st = WriteFileAtomic(Path(name), "x");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("File name too long"), std::string::npos) << st.message();
  EXPECT_EQ(st.message().find('\n'), std::string::npos);
  EXPECT_TRUE(Entries().empty());
}

TEST_F(OutputFileTest, ProducerErrorKeepsThePreviousFile) {
  ASSERT_TRUE(WriteFileAtomic(Path("p.hatchet"), "old").ok());
  Status st = WriteStreamed(Path("p.hatchet"), [](const ChunkSink& sink) {
    sink("half of it");
    return Status::Error("broken", ErrorKind::kRuntime);
  });
  EXPECT_EQ(st.message(), "broken");
  EXPECT_EQ(test::ReadFile(Path("p.hatchet")), "old");
  EXPECT_EQ(Entries(), std::vector<std::string>{"p.hatchet"});
}

TEST_F(OutputFileTest, StreamsChunksInOrder) {
  Status st = WriteStreamed(Path("p.hatchet"), [](const ChunkSink& sink) {
    sink("a");
    sink("bc");
    return Status();
  });
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(test::ReadFile(Path("p.hatchet")), "abc");
}

// A failed write stops the producer: the sink refuses every chunk after it (no exception), and
// the write's error is the result; no temporary file is left and the previous profile stays.
TEST_F(OutputFileTest, FailedWriteStopsTheProducer) {
  ASSERT_TRUE(WriteFileAtomic(Path("p.hatchet"), "old").ok());
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  rlimit small = saved;
  small.rlim_cur = rlim_t{64} * 1024;  // writes past it fail with EFBIG instead of raising SIGXFSZ
  auto previous = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  int accepted = 0, offered = 0;
  Status st = WriteStreamed(Path("p.hatchet"), [&](const ChunkSink& sink) {
    const std::string chunk(4096, 'x');
    for (int i = 0; i < 1000; ++i) {
      ++offered;
      if (!sink(chunk)) break;
      ++accepted;
    }
    return Status();
  });
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message().rfind("cannot write " + Path("p.hatchet") + ": ", 0), 0u) << st.message();
  EXPECT_EQ(accepted, 16);  // 64 KiB in 4 KiB chunks, then the first refusal
  EXPECT_EQ(offered, accepted + 1);
  EXPECT_EQ(test::ReadFile(Path("p.hatchet")), "old");
  EXPECT_EQ(Entries(), std::vector<std::string>{"p.hatchet"});
}

// A writer stops at the first chunk its sink refuses instead of formatting the rest.
TEST_F(OutputFileTest, WriterStopsAtTheFirstRefusedChunk) {
  TreeData data;
  for (int i = 0; i < 20000; ++i) data.Child(data.Root(), "node_" + std::to_string(i));
  int chunks = 0;
  ChunkSink refuse = [&](std::string_view) {
    ++chunks;
    return false;
  };
  WriteOptions options;
  options.chunk_sink = &refuse;
  std::string out;
  data.WithLock([&] { WriteHatchet(data, {}, options, out); });
  EXPECT_EQ(chunks, 1);
}

// Memory running out inside a real writer (its 1 MB chunk buffer cannot be allocated) becomes
// one error line; no temporary file is left and the previous profile stays.
TEST_F(OutputFileTest, OutOfMemoryWhileWritingIsAnError) {
  if (!test::AllocationCountingAvailable()) GTEST_SKIP() << "sanitizer build owns operator new";
  ASSERT_TRUE(WriteFileAtomic(Path("p.hatchet"), "old").ok());
  TreeData data;
  NodeRef n = data.Root();
  for (int i = 0; i < 100; ++i) n = data.Child(n, "d");
  Status st = WriteStreamed(Path("p.hatchet"), [&](const ChunkSink& sink) {
    WriteOptions options;
    options.chunk_sink = &sink;
    std::string out;
    test::FailThreadAllocationsAbove(1 << 19);
    data.WithLock([&] { WriteHatchet(data, {}, options, out); });
    test::FailThreadAllocationsAbove(0);
    return Status();
  });
  test::FailThreadAllocationsAbove(0);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "cannot write " + Path("p.hatchet") + ": out of memory");
  EXPECT_EQ(test::ReadFile(Path("p.hatchet")), "old");
  EXPECT_EQ(Entries(), std::vector<std::string>{"p.hatchet"});
}

}  // namespace
}  // namespace proton
