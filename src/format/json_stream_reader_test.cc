// The streaming JSON reader must give what the simdjson reader gives, tree and failure class,
// on every document: differential tests over every sample profile, reference profile and fuzz
// corpus input, hand-written edge cases, and the same documents read from files and pipes in
// pieces that split tokens at every place (chunk and head boundaries).
#include "format/json_stream_reader.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "format/json_reader.h"
#include "format/tree_dump_for_test.h"
#include "tree/profile_tree.h"

namespace proton::format {
namespace {

using tree::ProfileTree;

struct Outcome {
  ReadFail fail;
  std::string tree;  // Dump of the tree when fail is kNone
  bool operator==(const Outcome& o) const { return fail == o.fail && tree == o.tree; }
};

std::ostream& operator<<(std::ostream& o, const Outcome& r) {
  return o << "ReadFail " << static_cast<int>(r.fail) << "\n" << r.tree.substr(0, 2000);
}

Outcome Finish(ReadFail fail, ProfileTree& t) {
  return {fail, fail == ReadFail::kNone ? Dump(t) : ""};
}

// The simdjson reader alone (no fast path, no streaming whatever the environment says).
Outcome ViaSimdjson(const std::string& doc) {
  SetJsonReadersForTest(std::numeric_limits<size_t>::max(), false);
  std::vector<char> buf(doc.size() + 64, '\0');
  std::memcpy(buf.data(), doc.data(), doc.size());
  ProfileTree t;
  const ReadFail fail = ParseJson(buf.data(), doc.size(), buf.size(), t);
  ResetJsonReadersForTest();
  return Finish(fail, t);
}

Outcome ViaStream(const std::string& doc) {
  ProfileTree t;
  const ReadFail fail = ParseJsonStream(doc, t);
  return Finish(fail, t);
}

// `doc`'s first `head` bytes given in memory, the rest written into a pipe by a thread.
Outcome ViaPipe(const std::string& doc, size_t head) {
  std::signal(SIGPIPE, SIG_IGN);
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    for (size_t at = head; at < doc.size();) {
      const ssize_t n = ::write(fds[1], doc.data() + at, doc.size() - at);
      if (n <= 0) break;
      at += static_cast<size_t>(n);
    }
    ::close(fds[1]);
  });
  ProfileTree t;
  int err = 0;
  const ReadFail fail =
      ReadJsonStream(std::string_view(doc).substr(0, head), nullptr, fds[0], 0, t, err);
  ::close(fds[0]);  // before the join: a writer the reader stopped listening to gets EPIPE
  writer.join();
  EXPECT_EQ(err, 0);
  return Finish(fail, t);
}

std::string Slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST(JsonStreamReader, SameResultOnEverySampleFile) {
  const std::string root = PROTON_SOURCE_DIR;
  size_t files = 0, read = 0;
  for (const char* dir :
       {"/tests/compat/viewer/profiles", "/tests/refdata", "/tests/fuzz/corpus/json_reader"}) {
    for (const auto& e : std::filesystem::directory_iterator(root + dir)) {
      if (!e.is_regular_file()) continue;
      std::string doc = Slurp(e.path());
      if (doc.size() >= 3 && doc.compare(0, 3, "\xEF\xBB\xBF") == 0) doc.erase(0, 3);
      ++files;
      const Outcome expected = ViaSimdjson(doc);
      read += expected.fail == ReadFail::kNone;
      EXPECT_EQ(ViaStream(doc), expected) << e.path();
    }
  }
  RecordProperty("files", static_cast<int>(files));
  EXPECT_GT(files, 900u);
  EXPECT_GT(read, 50u);
}

// A literal's bytes, NULs included (its terminating NUL excluded).
template <size_t kSize>
std::string WithNuls(const char (&literal)[kSize]) {
  return std::string(literal, kSize - 1);
}

const std::vector<std::string>& HandWrittenCases() {
  static const std::vector<std::string> kCases = {
      // Extensions, defaults, duplicates, every value type.
      "[{\"frame\": {\"name\": \"ROOT\"}, \"metrics\": {\"a\": 0, \"b\": 1, \"a\": 5},"
      " \"children\": [{\"frame\": {\"name\": \"k\", \"type\": \"function\"},"
      " \"metrics\": {\"a\": NaN, \"b\": Infinity, \"c\": -Infinity, \"d\": null, \"e\": 1.5e3,"
      " \"f\": 9223372036854775808, \"g\": -12, \"h\": [1, [2]], \"i\": true, \"j\": \"s\\\"q\","
      " \"k\\u0041\": {\"x\": 1}}}]}]",
      // Numbers Python reads and RapidJSON alone would not, and the reverse.
      std::string(R"([{"frame": {"name": "R"}, "metrics": {"big": 1e400, "tiny": -1e-400,)") +
          R"( "neg": -0, "long": )" + std::string(330, '7') +
          R"(, "e": 1E+2, "f": 0.000001, "m": -9223372036854775808, "o": -9223372036854775809}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": Inf}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": -NaN}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": -Inf}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": Infinit}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": NaNa}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": 01}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": 1.}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": .5}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": +1}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": 1e}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": 1 2}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": tru}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": 1x}}])",
      R"([{"frame": {"name": "R"}, "metrics": {"v": 1,}}])",
      // Strings: escapes, UTF-8, surrogates, control and NUL bytes.
      "[{\"frame\": {\"name\": \"k\\\"q\\u00e9\xE2\x82\xAC\\ud83d\\ude00\\/\\b\\f\\n\\r\\t\"}}]",
      "[{\"frame\": {\"name\": \"\\ud83d\"}}]",
      "[{\"frame\": {\"name\": \"\\ude00\"}}]",
      "[{\"frame\": {\"name\": \"\\ud83dx\"}}]",
      "[{\"frame\": {\"name\": \"\\u12\"}}]",
      "[{\"frame\": {\"name\": \"\\x\"}}]",
      "[{\"frame\": {\"name\": \"\\u0000\"}}]",
      "[{\"frame\": {\"name\": \"\xED\xA0\x80\"}}]",
      "[{\"frame\": {\"name\": \"\xF4\x90\x80\x80\"}}]",
      "[{\"frame\": {\"name\": \"\xC0\xAF\"}}]",
      "[{\"frame\": {\"name\": \"\xE2\x82\"}}]",
      "[{\"frame\": {\"name\": \"\x80\"}}]",
      "[{\"frame\": {\"name\": \"a\tb\"}}]",
      WithNuls("[{\"frame\": {\"name\": \"a\0b\"}}]"),
      WithNuls("[{\"frame\": {\"name\": \"R\"}}]\0"),
      WithNuls("[{\"frame\": {\"name\": \"R\"}}] \0 "),
      "[{\"frame\": {\"name\": \"R\"}, \"metrics\": {\"\\u00e9\": 1, \"a\\u0000b\": 2}}]",
      // Shapes.
      "[]",
      "[1]",
      "[{}]",
      "[{\"frame\": {}}]",
      "[{\"frame\": {\"name\": 1}}]",
      "[{\"frame\": {\"name\": null}}]",
      "[{\"frame\": {\"name\": \"R\", \"type\": 3}}]",
      "[{\"frame\": {\"name\": \"R\", \"type\": null}}]",
      "[{\"frame\": {\"name\": \"R\", \"type\": [1]}}]",
      "[{\"frame\": {\"name\": \"R\", \"name\": \"S\", \"x\": {\"name\": 1}}}]",
      "[{\"frame\": {\"name\": \"R\"}, \"frame\": {\"type\": \"t\"}}]",
      "[{\"frame\": {\"name\": \"R\"}, \"frame\": {\"name\": \"S\"}}]",
      "[{\"frame\": {\"name\": \"R\"}, \"metrics\": []}]",
      "[{\"frame\": {\"name\": \"R\"}, \"metrics\": 1}]",
      "[{\"frame\": {\"name\": \"R\"}, \"children\": {}}]",
      "[{\"frame\": {\"name\": \"R\"}, \"children\": [1]}]",
      std::string(R"([{"frame": {"name": "R"}, "children": [{"frame": {"name": "a"}}], )") +
          R"("children": [{"frame": {"name": "b"}}]}])",
      "[{\"frame\": {\"name\": \"R\"}}, {}, {}]",
      "[{\"frame\": {\"name\": \"R\"}}, 1]",
      "[1, 2",
      "[{\"frame\": {\"name\": \"R\"}, \"children\": [1]",
      "[{\"x\": 1}, tru]",
      "[{\"frame\": {\"name\": \"R\"}, \"other\": [1, {\"a\": [true, null]}], \"n\": 2}]",
      // Devices.
      std::string("[{\"frame\": {\"name\": \"R\"}}, {\"CUDA\": {\"0\": {\"arch\": \"90\", ") +
          "\"num_sms\": 132, \"bus_width\": 6016, \"clock_rate\": 1.98e6, \"memory_clock_rate\": "
          "null, \"x\": [1]},"
          " \"1\": {\"arch\": 80, \"num_sms\": \"many\"}, \"0\": {\"arch\": true}},"
          " \"HIP\": {\"0\": {\"arch\": {\"a\": 1}, \"clock_rate\": NaN}}}]",
      "[{\"frame\": {\"name\": \"R\"}}, {\"CUDA\": []}]",
      "[{\"frame\": {\"name\": \"R\"}}, {\"CUDA\": {\"0\": 1}}]",
      "[{\"frame\": {\"name\": \"R\"}}, []]",
      // Top-level objects and syntax.
      "{}",
      "{\"traceEvents\": []}",
      "{\"a\": 1, \"trace\\u0045vents\": 2}",
      "{\"traceEvents\": []}\n{\"x\": 1}\n",
      // A Chrome trace is known from its key, its colon and a first-stage check of the rest.
      "{\"traceEvents\"ts\"\n\n",
      "{\"traceEvents\"ents\":vents\"a",
      "{\"traceEvents\":}",
      "{\"traceEvents\": tru, \"x\": \"\xC3\xA9\"",
      "{\"traceEvents\": [], \"x\": \"\xC3\"}",
      "{\"traceEvents\": [], \"x\": \"\x01\"}",
      "{\"traceEvents\": [], \"x\": \"open}",
      "{\"traceEvents\": [], \"x\": \"\\\"\"} \x01",
      "{\"traceEvents\": [1, \\\"], \"x\": 2}",
      "{\"traceEvents\": [1, \\\"], \"x\": \"2}",
      "{\"a\": {\"traceEvents\": 1}}",
      "{\"a\": 1} x",
      "{\"a\": 1",
      "[",
      "[{]",
      "[1 2]",
      "{\"a\":",
      "",
      "   ",
      "[{\"frame\": {\"name\": \"R\"}}] x",
      "[{\"frame\": {\"name\": \"R\"}}] 5",
      "[{\"frame\": {\"name\": \"R\"}}]\n\t\r ",
      "[{\"frame\": {\"name\": \"R\"}}]]",
      "[{\"frame\": {\"name\": \"R\"}}] []",
      "\f[{\"frame\": {\"name\": \"R\"}}]",
      "[{\"frame\": {\"name\": \"R\"}}\f]",
      "1",
      "\"s\"",
      "null",
  };
  return kCases;
}

TEST(JsonStreamReader, SameResultOnEdgeCases) {
  for (const std::string& doc : HandWrittenCases())
    EXPECT_EQ(ViaStream(doc), ViaSimdjson(doc)) << doc;
}

// Every split between the bytes in memory and the pipe: tokens, escapes, UTF-8 sequences and
// lifted numbers cut at every place.
TEST(JsonStreamReader, SameResultWhateverTheSplit) {
  for (const std::string& doc : HandWrittenCases()) {
    const Outcome expected = ViaSimdjson(doc);
    for (size_t head = 0; head <= doc.size(); head += doc.size() > 200 ? 7 : 1)
      EXPECT_EQ(ViaPipe(doc, head), expected) << doc << " split at " << head;
  }
}

// Numbers, strings and escapes straddling the reader's 1 MiB chunks of a file.
TEST(JsonStreamReader, TokensAcrossChunks) {
  const std::string path =
      testing::TempDir() + "/json_stream_reader_test." + std::to_string(::getpid()) + ".json";
  for (size_t shift = 0; shift < 12; ++shift) {
    std::string doc = "\xEF\xBB\xBF[{\"frame\": {\"name\": \"R\"}, \"metrics\": {";
    doc += "\"pad\": \"" + std::string((size_t{1} << 20) - doc.size() - 12 + shift, 'p') + "\", ";
    doc += "\"n\": -1234.5e-3, \"s\": \"\\u00e9\xE2\x82\xAC\\ud83d\\ude00\", \"i\": NaN}}]";
    {
      std::ofstream f(path, std::ios::binary);
      f << doc;
    }
    const int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    ProfileTree t;
    int err = 0;
    const ReadFail fail = ReadJsonStream({}, nullptr, fd, doc.size(), t, err);
    ::close(fd);
    EXPECT_EQ(Finish(fail, t), ViaSimdjson(doc.substr(3))) << shift;
  }
  std::remove(path.c_str());
}

TEST(JsonStreamReader, DeepChainWithoutRecursion) {
  std::string doc = "[";
  const int depth = 100000;
  for (int i = 0; i < depth; ++i)
    doc += R"({"frame": {"name": "f"}, "metrics": {"t": 1}, "children": [)";
  doc += R"({"frame": {"name": "leaf"}, "other": [[[[[[[[[[]]]]]]]]]]})";
  for (int i = 0; i < depth; ++i) doc += "]}";
  doc += "]";
  const Outcome streamed = ViaStream(doc);
  EXPECT_EQ(streamed.fail, ReadFail::kNone);
  EXPECT_EQ(streamed, ViaSimdjson(doc));
}

// Nesting deeper than simdjson's max_depth setting (2^24), which On-Demand does not enforce:
// both readers find a well-formed document that is not a profile, without recursion.
TEST(JsonStreamReader, NestingWithoutLimit) {
  const size_t levels = (size_t{1} << 24) + 1;
  const std::string doc = std::string(levels, '[') + std::string(levels, ']');
  EXPECT_EQ(ViaStream(doc).fail, ReadFail::kShape);
  EXPECT_EQ(ViaStream(doc.substr(0, doc.size() - 1)).fail, ReadFail::kRead);
}

}  // namespace
}  // namespace proton::format
