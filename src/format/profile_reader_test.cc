// Reader tests: every compat profile, each error class, JSON extensions, all MessagePack
// types, and 100,000-level chains in both formats.
#include "format/profile_reader.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "format/json_reader.h"
#include "format/tree_dump_for_test.h"
#include "tree/profile_tree.h"

namespace proton::format {
namespace {

using tree::ProfileTree;
using tree::ValueType;

const std::string kProfiles = std::string(PROTON_SOURCE_DIR) + "/tests/compat/viewer/profiles/";

std::string Message(const Result<ProfileTree>& r) { return r.ok() ? "" : r.status().message(); }

TEST(ReaderCompat, EveryProfileReadsOrFailsAsSpecified) {
  const char* ok[] = {"cpu_scopes.hatchet",
                      "cuda.json",
                      "cuda_json_content.hatchet_msgpack",
                      "deep_chain.hatchet",
                      "frame.json",
                      "gpt2_shadow.hatchet",
                      "hip.json",
                      "hook_current.hatchet_msgpack",
                      "leaf_nodes.json",
                      "msgpack_named.hatchet",
                      "ref_hook.hatchet",
                      "ref_python.hatchet",
                      "ref_shadow.hatchet",
                      "synthetic_current_writer.hatchet",
                      "triton.json"};
  for (const char* f : ok) {
    auto r = LoadProfile(kProfiles + f);
    EXPECT_TRUE(r.ok()) << f << ": " << Message(r);
    if (r.ok()) {
      EXPECT_GT(r->size(), 1u) << f;
      EXPECT_EQ(r->name(0), "ROOT") << f;
    }
  }
  const std::string empty = kProfiles + "empty.hatchet";
  EXPECT_EQ(Message(LoadProfile(empty)), "'" + empty + "' contains no profile data");
  const std::string trace = kProfiles + "small_trace.chrome_trace";
  EXPECT_EQ(Message(LoadProfile(trace)),
            "'" + trace + "' is a Chrome trace, not a Proton tree profile");
  const std::string trunc = kProfiles + "truncated.hatchet";
  EXPECT_EQ(Message(LoadProfile(trunc)),
            "cannot read '" + trunc + "': not a JSON or MessagePack profile");
}

TEST(ReaderCompat, MessagePackAndJsonFormsAgree) {
  auto j = LoadProfile(kProfiles + "cuda.json");
  auto m = LoadProfile(kProfiles + "cuda_json_content.hatchet_msgpack");
  ASSERT_TRUE(j.ok() && m.ok());
  ASSERT_EQ(j->size(), m->size());
  for (tree::NodeId n = 0; n < j->size(); ++n) EXPECT_EQ(j->name(n), m->name(n));
  ASSERT_TRUE(j->devices().Find("CUDA", "0"));
}

TEST(ReaderCompat, CudaJsonMetricTable) {
  auto r = LoadProfile(kProfiles + "cuda.json");
  ASSERT_TRUE(r.ok());
  // viewer.md §3.4: inclusive count, time, flops8, bytes; exclusive device_id, device_type.
  std::vector<std::string> keys;
  for (const auto& c : r->columns()) keys.push_back(c.key);
  ASSERT_EQ(r->num_inclusive(), 4u);
  EXPECT_EQ(keys, (std::vector<std::string>{"count", "time (ns)", "flops8", "bytes", "device_id",
                                            "device_type"}));
  const auto& dev = r->columns()[static_cast<size_t>(r->FindColumn("device_id"))];
  EXPECT_EQ(dev.kind, tree::ColumnKind::kNonNumeric);
  EXPECT_EQ(dev.str(r->sorted_children(0)[0]), "1");  // foo0 runs on device 1
}

TEST(ReaderErrors, OpenAndContent) {
  EXPECT_EQ(Message(ReadProfileFile("/nonexistent/x.hatchet")),
            "cannot open '/nonexistent/x.hatchet': No such file or directory");
  EXPECT_EQ(Message(ReadProfileFile("/")), "cannot open '/': Is a directory");
  const char* unreadable[] = {"",     "   ",      "hello", "[",      "[{]",
                              "\x92", "\x92\xc1", "[1 2]", "{\"a\":"};
  for (const char* s : unreadable)
    EXPECT_EQ(Message(ParseProfile(s, "F")), "cannot read 'F': not a JSON or MessagePack profile")
        << s;
  const char* shapes[] = {"[]",
                          "[1]",
                          "[{}]",
                          "{}",
                          "[{\"frame\": {}}]",
                          "[{\"frame\": {\"name\": 1}}]",
                          "[{\"frame\": {\"name\": \"R\"}, \"metrics\": []}]",
                          "[{\"frame\": {\"name\": \"R\"}, \"children\": {}}]",
                          "[{\"frame\": {\"name\": \"R\"}}, {}, {}]",
                          "[{\"frame\": {\"name\": \"R\"}, \"children\": [1]}]"};
  for (const char* s : shapes)
    EXPECT_EQ(Message(ParseProfile(s, "F")), "'F' is not a Proton tree profile") << s;
  EXPECT_EQ(Message(ParseProfile("{\"traceEvents\": []}\n{\"x\": 1}\n", "F")),
            "'F' is a Chrome trace, not a Proton tree profile");
  // Our (Triton 3.7+) layout: traceEvents after baseTimeNanoseconds and displayTimeUnit.
  EXPECT_EQ(Message(ParseProfile("{\"baseTimeNanoseconds\":0,\"displayTimeUnit\":\"us\","
                                 "\"traceEvents\":[]}\n",
                                 "F")),
            "'F' is a Chrome trace, not a Proton tree profile");
  // A shape error in a truncated document is still "cannot read".
  EXPECT_EQ(Message(ParseProfile("[1, 2", "F")),
            "cannot read 'F': not a JSON or MessagePack profile");
  EXPECT_EQ(DisplayName("-"), "<stdin>");
}

// Feeds `first` then up to 256 MiB of pseudo-random bytes into a pipe and reads it as a
// profile: the reader must refuse after the first bytes instead of reading everything.
size_t BytesTakenBeforeRefusal(std::string first, std::string& message) {
  std::signal(SIGPIPE, SIG_IGN);
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  std::atomic<size_t> written{0};
  std::thread writer([&] {
    std::vector<char> chunk(1 << 16);
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (char& c : chunk) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      c = static_cast<char>(x);
    }
    std::copy(first.begin(), first.end(), chunk.begin());
    for (size_t total = 0; total < (size_t{256} << 20);) {
      const ssize_t n = ::write(fds[1], chunk.data(), chunk.size());
      if (n <= 0) break;  // EPIPE: the reader is done
      total += static_cast<size_t>(n);
      written = total;
    }
    ::close(fds[1]);
  });
  message = Message(ReadProfileFile("/dev/fd/" + std::to_string(fds[0])));
  ::close(fds[0]);
  writer.join();
  return written;
}

TEST(ReaderErrors, EndlessInputIsRefusedFromItsFirstBytes) {
  const std::string refused = "cannot read '/dev/fd/";
  for (const std::string& first :
       {std::string("\x01"), std::string(" \t\n\x00", 4), std::string("\xEF\xBB\xBFx")}) {
    std::string message;
    EXPECT_LT(BytesTakenBeforeRefusal(first, message), size_t{8} << 20);
    EXPECT_EQ(message.substr(0, refused.size()), refused);
    EXPECT_NE(message.find("not a JSON or MessagePack profile"), std::string::npos) << message;
  }
  // Only whitespace so far: refused once it passes 1 MiB.
  std::string message;
  const size_t big = size_t{4} << 20;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    const std::string spaces(1 << 16, ' ');
    for (size_t total = 0; total < big; total += spaces.size()) {
      if (::write(fds[1], spaces.data(), spaces.size()) <= 0) break;
    }
    ::close(fds[1]);
  });
  message = Message(ReadProfileFile("/dev/fd/" + std::to_string(fds[0])));
  ::close(fds[0]);
  writer.join();
  EXPECT_NE(message.find("not a JSON or MessagePack profile"), std::string::npos) << message;
}

// Writes `doc` into a pipe from a thread and reads it with ReadProfileFile(path_of(fd)).
template <typename PathOf>
Result<ProfileTree> ReadThroughPipe(const std::string& doc, PathOf path_of) {
  std::signal(SIGPIPE, SIG_IGN);
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    for (size_t at = 0; at < doc.size();) {
      const ssize_t n = ::write(fds[1], doc.data() + at, doc.size() - at);
      if (n <= 0) break;
      at += static_cast<size_t>(n);
    }
    ::close(fds[1]);
  });
  Result<ProfileTree> r = ReadProfileFile(path_of(fds[0]));
  ::close(fds[0]);
  writer.join();
  return r;
}

// Standard input replaced by the pipe for the read of "-".
Result<ProfileTree> ReadAsStdin(const std::string& doc) {
  const int saved = ::dup(STDIN_FILENO);
  Result<ProfileTree> r = ReadThroughPipe(doc, [](int fd) {
    ::dup2(fd, STDIN_FILENO);
    return std::string("-");
  });
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  return r;
}

// Standard input redirected from the file at `path` for the read of "-".
Result<ProfileTree> ReadStdinFromFile(const std::string& path) {
  const int saved = ::dup(STDIN_FILENO);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ::dup2(fd, STDIN_FILENO);
  ::close(fd);
  Result<ProfileTree> r = ReadProfileFile("-");
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  return r;
}

// Documents over the stream threshold (simdjson's 4 GiB by default) that the fast path does
// not read are streamed (json_stream_reader.h). The threshold is lowered so that small
// documents take that path from a file, a pipe, standard input (a pipe or a file) and memory,
// with the fast path on and off, and every way must give the tree the default reading gives.
TEST(ReaderLarge, OverTheStreamThreshold) {
  const std::string fast_doc =
      "\xEF\xBB\xBF[{\"frame\": {\"name\": \"ROOT\"}, \"metrics\": {\"count\": 0}, \"children\": "
      "[\n"
      "  {\"frame\": {\"name\": \"k\\\"q\\u00e9\xE2\x82\xAC\"}, \"metrics\": {\"count\": 2}}]}]\n";
  const std::string vector_doc =
      "\n[{\"frame\": {\"name\": \"R\"}, \"metrics\": {\"v\": [1], \"t\": 1e400}, \"children\": "
      "[{\"metrics\": {\"time (ns)\": 5}, \"frame\": {\"name\": \"k\"}}]}]";
  const std::string path =
      testing::TempDir() + "/reader_large_test." + std::to_string(::getpid()) + ".json";
  for (const std::string& doc : {fast_doc, vector_doc}) {
    {
      FILE* f = std::fopen(path.c_str(), "wb");
      ASSERT_NE(f, nullptr);
      std::fwrite(doc.data(), 1, doc.size(), f);
      std::fclose(f);
    }
    Result<ProfileTree> expected = ReadProfileFile(path);
    ASSERT_TRUE(expected.ok()) << Message(expected);
    const std::string want = Dump(*expected);
    for (const bool fast : {true, false}) {
      for (const size_t threshold : {size_t{0}, size_t{16}}) {
        SetJsonReadersForTest(threshold, fast);
        Result<ProfileTree> got[] = {
            ReadProfileFile(path), ParseProfile(doc, "F"), ReadAsStdin(doc),
            ReadStdinFromFile(path),
            ReadThroughPipe(doc, [](int fd) { return "/dev/fd/" + std::to_string(fd); })};
        ResetJsonReadersForTest();
        for (Result<ProfileTree>& r : got) {
          ASSERT_TRUE(r.ok()) << Message(r) << " fast " << fast << " threshold " << threshold;
          EXPECT_EQ(Dump(*r), want) << doc;
        }
      }
    }
  }
  std::remove(path.c_str());
  SetJsonReadersForTest(16, true);
  Result<ProfileTree> chrome = ParseProfile("{\"traceEvents\": []}", "F");
  Result<ProfileTree> piped_chrome =
      ReadAsStdin("{\"traceEvents\": [" + std::string(100, ' ') + "]}");
  Result<ProfileTree> cut = ReadAsStdin(vector_doc.substr(0, vector_doc.size() - 1));
  Result<ProfileTree> msgpack =
      ReadAsStdin(std::string("\x91\x81\xa5") + "frame\x81\xa4" + "name\xa1" + "R");
  ResetJsonReadersForTest();
  EXPECT_EQ(Message(chrome), "'F' is a Chrome trace, not a Proton tree profile");
  EXPECT_EQ(Message(piped_chrome), "'<stdin>' is a Chrome trace, not a Proton tree profile");
  EXPECT_EQ(Message(cut), "cannot read '<stdin>': not a JSON or MessagePack profile");
  EXPECT_TRUE(msgpack.ok()) << Message(msgpack);
}

TEST(ReaderJson, ExtensionsDefaultsAndNumbers) {
  const char* doc =
      "\xEF\xBB\xBF \n[{\"frame\": {\"name\": \"ROOT\"}, \"metrics\": {\"a\": 0, \"b\": 1, \"a\": "
      "5},"
      " \"children\": [{\"frame\": {\"name\": \"k\", \"type\": \"function\"},"
      " \"metrics\": {\"a\": NaN, \"b\": Infinity, \"c\": -Infinity, \"d\": null, \"e\": 1.5e3,"
      " \"f\": 9223372036854775808, \"g\": -12, \"h\": [1, [2]], \"i\": true, \"j\": \"s\\\"q\","
      " \"k\\u0041\": {\"x\": 1}}}]}]";
  auto r = ParseProfile(doc, "F");
  ASSERT_TRUE(r.ok()) << Message(r);
  ProfileTree& t = *r;
  ASSERT_TRUE(tree::PrepareProfile(t, "F").ok());
  EXPECT_EQ(t.type(0), "None");
  auto col = [&](const char* k) -> const tree::RawColumn& {
    return t.columns()[static_cast<size_t>(t.FindColumn(k))];
  };
  EXPECT_EQ(col("a").own[0], 5);  // duplicate key: last value wins
  EXPECT_TRUE(std::isnan(col("a").own[1]));
  EXPECT_EQ(col("a").type[1], ValueType::kDouble);
  EXPECT_EQ(col("b").own[1], HUGE_VAL);
  EXPECT_EQ(col("c").own[1], -HUGE_VAL);
  EXPECT_EQ(col("d").type[1], ValueType::kNull);
  EXPECT_EQ(col("e").type[1], ValueType::kDouble);
  EXPECT_EQ(col("e").own[1], 1500);
  EXPECT_EQ(col("f").type[1], ValueType::kDouble);
  EXPECT_EQ(col("g").type[1], ValueType::kInt);
  EXPECT_EQ(col("g").int_value(1), -12);
  EXPECT_EQ(col("h").kind, tree::ColumnKind::kNonNumeric);
  EXPECT_EQ(col("i").type[1], ValueType::kBool);
  EXPECT_EQ(col("j").str(1), "s\"q");
  EXPECT_GE(t.FindColumn("kA"), 0);
  // Inclusive: a, b (root keys, in order: a first although it repeats).
  ASSERT_EQ(t.num_inclusive(), 2u);
  EXPECT_EQ(t.columns()[0].key, "a");
  EXPECT_EQ(col("a").inc[0], 5);  // NaN child skipped
  EXPECT_EQ(col("b").inc[0], HUGE_VAL);
}

TEST(ReaderJson, TokenClassification) {
  EXPECT_EQ(ClassifyJsonToken("12").type, ValueType::kInt);
  EXPECT_EQ(ClassifyJsonToken("-0").type, ValueType::kInt);
  EXPECT_EQ(ClassifyJsonToken("1.0").type, ValueType::kDouble);
  EXPECT_EQ(ClassifyJsonToken("1e400").d, HUGE_VAL);
  EXPECT_EQ(ClassifyJsonToken("01").type, ValueType::kAbsent);
  EXPECT_EQ(ClassifyJsonToken("1.").type, ValueType::kAbsent);
  EXPECT_EQ(ClassifyJsonToken("nan").type, ValueType::kAbsent);
  EXPECT_EQ(ClassifyJsonToken("99999999999999999999").type, ValueType::kDouble);
}

// --- MessagePack encoding helpers for the tests.
void Be(std::string& o, uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i) o.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void Str(std::string& o, std::string_view s) {
  if (s.size() < 32)
    o.push_back(static_cast<char>(0xa0 | s.size()));
  else {
    o.push_back('\xd9');
    Be(o, s.size(), 1);
  }
  o.append(s);
}
void Map(std::string& o, size_t n) { o.push_back(static_cast<char>(0x80 | n)); }
void Frame(std::string& o, std::string_view name) {
  Str(o, "frame");
  Map(o, 2);
  Str(o, "name");
  Str(o, name);
  Str(o, "type");
  Str(o, "function");
}

TEST(ReaderMsgpack, AllTypes) {
  std::string o = "\x92";  // [root, devices]
  Map(o, 3);
  Frame(o, "ROOT");
  Str(o, "metrics");
  Map(o, 2);
  Str(o, "time (ns)");
  o.push_back('\x00');
  Str(o, "count");
  o.push_back('\xcc');
  o.push_back('\x00');
  Str(o, "children");
  o += '\xdc';
  Be(o, 1, 2);  // array16 of 1
  o += '\xde';
  Be(o, 3, 2);  // map16 node
  Frame(o, "k");
  Str(o, "metrics");
  o += '\xdf';
  Be(o, 15, 4);  // map32 of 15
  Str(o, "time (ns)");
  o += '\xcd';
  Be(o, 300, 2);
  Str(o, "count");
  o += '\xce';
  Be(o, 70000, 4);
  Str(o, "u64");
  o += '\xcf';
  Be(o, 0xffffffffffffffffull, 8);
  Str(o, "i8");
  o += '\xd0';
  Be(o, 0x80, 1);
  Str(o, "i16");
  o += '\xd1';
  Be(o, 0xff00, 2);
  Str(o, "i32");
  o += '\xd2';
  Be(o, 0xfffffffe, 4);
  Str(o, "i64");
  o += '\xd3';
  Be(o, 0xfffffffffffffffdull, 8);
  Str(o, "nfix");
  o += '\xff';
  Str(o, "f32");
  o += '\xca';
  Be(o, 0x3fc00000, 4);  // 1.5f
  Str(o, "f64");
  o += '\xcb';
  Be(o, 0x4004000000000000ull, 8);  // 2.5
  Str(o, "nil");
  o += '\xc0';
  Str(o, "t");
  o += '\xc3';
  Str(o, "s16");
  o += '\xda';
  Be(o, 1, 2);
  o += 'x';
  Str(o, "s32");
  o += '\xdb';
  Be(o, 1, 4);
  o += 'y';
  Str(o, "vec");
  o += '\xdd';
  Be(o, 2, 4);
  o += '\x01';
  o += '\x91';
  o += '\x02';
  Str(o, "children");
  o += '\x90';
  Map(o, 1);  // devices
  Str(o, "CUDA");
  Map(o, 1);
  Str(o, "0");
  Map(o, 5);
  Str(o, "clock_rate");
  o += '\xce';
  Be(o, 1980000, 4);
  Str(o, "memory_clock_rate");
  o += '\xce';
  Be(o, 3201000, 4);
  Str(o, "bus_width");
  o += '\xcd';
  Be(o, 6016, 2);
  Str(o, "arch");
  Str(o, "90");
  Str(o, "num_sms");
  o += '\xcc';
  Be(o, 132, 1);
  auto r = ParseProfile(o, "M");
  ASSERT_TRUE(r.ok()) << Message(r);
  ProfileTree& t = *r;
  ASSERT_TRUE(tree::PrepareProfile(t, "M").ok());
  auto col = [&](const char* k) -> const tree::RawColumn& {
    return t.columns()[static_cast<size_t>(t.FindColumn(k))];
  };
  EXPECT_EQ(t.columns()[0].key, "time (ns)");  // MessagePack order kept
  EXPECT_EQ(col("count").int_value(1), 70000);
  EXPECT_EQ(col("u64").type[1], ValueType::kDouble);
  EXPECT_EQ(col("i8").int_value(1), -128);
  EXPECT_EQ(col("i16").int_value(1), -256);
  EXPECT_EQ(col("i32").int_value(1), -2);
  EXPECT_EQ(col("i64").int_value(1), -3);
  EXPECT_EQ(col("nfix").int_value(1), -1);
  EXPECT_EQ(col("f32").own[1], 1.5);
  EXPECT_EQ(col("f64").own[1], 2.5);
  EXPECT_EQ(col("nil").type[1], ValueType::kNull);
  EXPECT_EQ(col("t").type[1], ValueType::kBool);
  EXPECT_EQ(col("s16").str(1), "x");
  EXPECT_EQ(col("s32").str(1), "y");
  EXPECT_EQ(col("vec").type[1], ValueType::kArray);
  EXPECT_EQ(col("time (ns)").inc[0], 300);
  const tree::DeviceInfo* d = t.devices().Find("CUDA", "0");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->arch, "90");
  EXPECT_EQ(d->num_sms, 132);
  EXPECT_EQ(d->bus_width, 6016);

  // Truncated anywhere → cannot read; bin/ext → not a tree profile; non-string key → shape.
  for (size_t cut = 1; cut < o.size(); cut += 7)
    EXPECT_EQ(Message(ParseProfile(o.substr(0, cut), "M")),
              "cannot read 'M': not a JSON or MessagePack profile")
        << cut;
  std::string bin = "\x91";
  Map(bin, 2);
  Frame(bin, "ROOT");
  Str(bin, "metrics");
  Map(bin, 1);
  Str(bin, "b");
  bin += "\xc4\x01z";
  EXPECT_EQ(Message(ParseProfile(bin, "M")), "'M' is not a Proton tree profile");
  std::string key = "\x91\x81\x01\x02";
  EXPECT_EQ(Message(ParseProfile(key, "M")), "'M' is not a Proton tree profile");
  EXPECT_EQ(Message(ParseProfile(o + "x", "M")),
            "cannot read 'M': not a JSON or MessagePack profile");
}

constexpr int kDeep = 100000;

TEST(ReaderDeep, JsonChain) {
  std::string s = "[";
  for (int i = 0; i < kDeep; ++i) s += "{\"children\": [";
  s += "{\"frame\": {\"name\": \"leaf\"}, \"metrics\": {\"time (ns)\": 1}}";
  for (int i = 0; i < kDeep; ++i) s += "], \"frame\": {\"name\": \"n\"}, \"metrics\": {}}";
  s += "]";
  // Make the outermost node the root with a placeholder.
  auto r = ParseProfile(s, "D");
  ASSERT_TRUE(r.ok()) << Message(r);
  ASSERT_TRUE(tree::PrepareProfile(*r, "D").ok());
  EXPECT_EQ(r->size(), static_cast<size_t>(kDeep + 1));
  EXPECT_EQ(r->depth(kDeep), static_cast<uint32_t>(kDeep));
}

TEST(ReaderDeep, MsgpackChain) {
  std::string o = "\x91";
  for (int i = 0; i < kDeep; ++i) {
    Map(o, 3);
    Frame(o, "n");
    Str(o, "metrics");
    Map(o, 1);
    Str(o, "time (ns)");
    o += '\x01';
    Str(o, "children");
    o += '\x91';
  }
  Map(o, 2);
  Frame(o, "leaf");
  Str(o, "children");
  o += '\x90';
  auto r = ParseProfile(o, "D");
  ASSERT_TRUE(r.ok()) << Message(r);
  ASSERT_TRUE(tree::PrepareProfile(*r, "D").ok());
  EXPECT_EQ(r->size(), static_cast<size_t>(kDeep));  // the metric-less leaf is removed
  EXPECT_EQ(r->columns()[0].inc[0], kDeep);
}

}  // namespace
}  // namespace proton::format
