// The JSON fast path must make exactly the tree the simdjson reader makes, on every document
// it accepts: differential test over every sample profile, reference profile and fuzz corpus
// input, plus hand-written edge cases that it must either read identically or hand over.
#include "format/json_fast_reader.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "format/json_reader.h"
#include "format/tree_dump_for_test.h"
#include "tree/profile_tree.h"

namespace proton::format {
namespace {

using tree::NodeId;
using tree::ProfileTree;

constexpr size_t kPad = 64;

// Returns whether the fast path accepted `doc`; when it did, checks the trees are equal.
bool Compare(const std::string& doc, const std::string& what) {
  std::vector<char> buf(doc.size() + kPad, '\0');
  std::memcpy(buf.data(), doc.data(), doc.size());
  ProfileTree fast;
  if (!ParseJsonFast(buf.data(), doc.size(), fast)) return false;
  ProfileTree slow;
  EXPECT_EQ(ParseJson(buf.data(), doc.size(), buf.size(), slow, /*allow_fast=*/false),
            ReadFail::kNone)
      << what;
  EXPECT_EQ(Dump(fast), Dump(slow)) << what;
  return true;
}

std::string Slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST(JsonFastReader, SameTreeOnEverySampleFile) {
  const std::string root = PROTON_SOURCE_DIR;
  size_t accepted = 0, files = 0;
  for (const char* dir :
       {"/tests/compat/viewer/profiles", "/tests/refdata", "/tests/fuzz/corpus/json_reader"}) {
    if (!std::filesystem::exists(root + dir)) continue;
    for (const auto& e : std::filesystem::directory_iterator(root + dir)) {
      if (!e.is_regular_file()) continue;
      std::string doc = Slurp(e.path());
      if (doc.size() >= 3 && doc.compare(0, 3, "\xEF\xBB\xBF") == 0) doc.erase(0, 3);
      ++files;
      accepted += Compare(doc, e.path().string());
    }
  }
  RecordProperty("files", static_cast<int>(files));
  RecordProperty("accepted", static_cast<int>(accepted));
  // Every well-formed Proton profile among them takes the fast path.
  EXPECT_GT(files, 100u);
  EXPECT_GT(accepted, 30u);
}

TEST(JsonFastReader, AcceptsOrHandsOver) {
  const std::string node =
      R"({"children": [], "frame": {"name": "k", "type": "function"}, "metrics": {"count": 1}})";
  struct Case {
    std::string doc;
    bool fast;
  };
  const Case cases[] = {
      {"[" + node + "]", true},
      {" \n\t[ " + node + " , {\"CUDA\": {\"0\": {\"arch\": \"90\", \"num_sms\": 132}}} ]\r\n",
       true},
      {R"([{"frame": {"name": "R"}, "metrics": {"a": NaN, "b": -Infinity, "c": null, "d": true, "e": "s", "f": 1e999, "g": 18446744073709551615, "h": -0.0}, "children": [{"frame": {"name": "x", "type": null}, "metrics": {}, "extra": 3}]}])",
       true},
      {R"([{"frame": {"name": "R", "name": "S"}, "frame": {"name": "T"}, "children": [], "children": [{"frame": {"name": "c"}}]}])",
       true},
      {"[" + node + "," + node + "]", false},             // second element not a device table
      {"[" + node + ", {}, 1]", false},                   // three elements
      {R"([{"frame": {"name": "a\"b"}}])", true},         // escape
      {"[{\"frame\": {\"name\": \"\xC3\xA9\"}}]", true},  // non-ASCII
      {R"([{"frame": {"name": "\\ \/ \b\f\n\r\t \u00e9\u20AC \ud83d\ude00", "type": "\u0066n"}, "metrics": {"c\u006fun\u0074": 1, "s": "\u00e9"}}, {"CUDA": {"\u0030": {"arch": "\u0039\u0030"}}}])",
       true},
      {R"([{"fr\u0061me": {"name": "R"}, "chi\u006cdren": [{"frame": {"name": "c"}}]}])", true},
      {"[{\"frame\": {\"name\": \"\xF0\x9F\x98\x80 \xE2\x82\xAC \xED\x9F\xBF \xF4\x8F\xBF\xBF\"}}]",
       true},
      {R"([{"frame": {"name": "\ud83d"}}])", false},  // high surrogate alone
      {R"([{"frame": {"name": "\ude00"}}])", false},  // low surrogate alone
      {R"([{"frame": {"name": "\ud83d\u0041"}}])", false},
      {R"([{"frame": {"name": "\x41"}}])", false},  // not a JSON escape
      {R"([{"frame": {"name": "\u12G4"}}])", false},
      {"[{\"frame\": {\"name\": \"\xC0\x80\"}}]", false},          // overlong
      {"[{\"frame\": {\"name\": \"\xED\xA0\x80\"}}]", false},      // UTF-8 surrogate
      {"[{\"frame\": {\"name\": \"\xF4\x90\x80\x80\"}}]", false},  // above U+10FFFF
      {"[{\"frame\": {\"name\": \"\xE2\x82\"}}]", false},          // cut short
      {"[{\"frame\": {\"name\": \"\x80\"}}]", false},              // stray continuation byte
      {"[{\"frame\": {\"name\": \"a\tb\"}}]", false},              // control byte
      {R"([{"frame": {"name": "R"}, "metrics": {"v": [1, 2]}}])", false},  // vector metric
      {R"([{"frame": {"name": "R"}, "metrics": {"v": 01}}])", false},
      {R"([{"frame": {"name": "R"}, "metrics": {"v": 1 2}}])", false},
      {R"([{"frame": {"name": "R"}, "metrics": {"v": 1,}}])", false},
      {R"([{"frame": {"name": "R"}, "children": [,]}])", false},
      {R"([{"frame": {"name": "R"}, "children": [{}]}])", false},  // child without frame
      {R"([{"metrics": {}}])", false},
      {R"([{"frame": {"name": 3}}])", false},
      {R"([{"frame": {"name": "R", "type": 3}}])", false},
      {R"([{"frame": {"name": "R"}}] x)", false},
      {R"([{"frame": {"name": "R"}})", false},
      {R"([{"frame": {"name": "R"})", false},
      {R"([{"frame": {"name": "R)", false},
      {"[]", false},
  };
  for (const Case& c : cases) EXPECT_EQ(Compare(c.doc, c.doc), c.fast) << c.doc;
  // A NUL inside the document, and a buffer without the NUL sentinel, are handed over.
  std::string with_nul = "[" + node + "]";
  with_nul[5] = '\0';
  EXPECT_FALSE(Compare(with_nul, "nul"));
  const std::string doc = "[" + node + "]";
  std::vector<char> buf(doc.size() + kPad, ' ');
  std::memcpy(buf.data(), doc.data(), doc.size());
  ProfileTree t;
  EXPECT_FALSE(ParseJsonFast(buf.data(), doc.size(), t));
}

// Streams a document from a temporary file; returns whether the fast path accepted it and,
// when it did, checks the tree against the simdjson reader's.
bool CompareStreamed(const std::string& doc, const std::string& what) {
  // Per process: ctest runs the streamed copy of this test (CMakeLists.txt) beside it.
  const std::string path =
      testing::TempDir() + "/json_fast_reader_test." + std::to_string(::getpid()) + ".json";
  {
    std::ofstream f(path, std::ios::binary);
    f << doc;
  }
  const int fd = ::open(path.c_str(), O_RDONLY);
  EXPECT_GE(fd, 0);
  ProfileTree fast;
  const bool ok = ReadJsonFast(fd, doc.size(), fast);
  ::close(fd);
  std::remove(path.c_str());
  if (!ok) return false;
  std::string body = doc;
  if (body.compare(0, 3, "\xEF\xBB\xBF") == 0) body.erase(0, 3);
  std::vector<char> buf(body.size() + kPad, '\0');
  std::memcpy(buf.data(), body.data(), body.size());
  ProfileTree slow;
  EXPECT_EQ(ParseJson(buf.data(), body.size(), buf.size(), slow, false), ReadFail::kNone) << what;
  EXPECT_EQ(Dump(fast), Dump(slow)) << what;
  return true;
}

// Several windows' worth of indented nodes with names of every length around the refill
// points, a byte-order mark, trailing whitespace past a window, and hand-overs late in the file.
TEST(JsonFastReader, StreamedAcrossWindows) {
  std::string doc =
      "\xEF\xBB\xBF[\n  {\"frame\": {\"name\": \"ROOT\"}, \"metrics\": {\"count\": 0}, "
      "\"children\": [";
  for (int i = 0; i < 30000; ++i) {
    if (i > 0) doc += ",";
    doc += "\n      {\"children\": [], \"frame\": {\"name\": \"" +
           std::string(static_cast<size_t>(i % 97), static_cast<char>('a' + i % 26)) +
           "\", \"type\": \"function\"}, \"metrics\": {\"count\": " + std::to_string(i) +
           ", \"time (ns)\": " + std::to_string(i * 1.5) + ", \"device_type\": \"CUDA\"}}";
  }
  doc += "]}, {\"CUDA\": {\"0\": {\"arch\": \"90\", \"num_sms\": 132}}}\n]";
  const std::string ok = doc + std::string(3u << 20, ' ') + "\n";
  EXPECT_GT(ok.size(), 4u << 20);
  EXPECT_TRUE(CompareStreamed(ok, "windows"));
  EXPECT_FALSE(CompareStreamed(ok + "x", "trailing byte"));
  std::string late = doc;
  late.insert(late.size() - 60, "\\");  // an escape inside the device table, megabytes in
  EXPECT_FALSE(CompareStreamed(late, "late escape"));
  // A name longer than the refill margin cannot be held in the window: handed over.
  std::string long_name = "[{\"frame\": {\"name\": \"" + std::string(3u << 20, 'n') + "\"}}]";
  EXPECT_FALSE(CompareStreamed(long_name, "long name"));
  EXPECT_FALSE(CompareStreamed("\x93\x01", "msgpack"));
}

TEST(JsonFastReader, DeepChainWithoutRecursion) {
  std::string doc = "[";
  const int depth = 100000;
  for (int i = 0; i < depth; ++i)
    doc += R"({"frame": {"name": "f"}, "metrics": {"t": 1}, "children": [)";
  doc += R"({"frame": {"name": "leaf"}})";
  for (int i = 0; i < depth; ++i) doc += "]}";
  doc += "]";
  EXPECT_TRUE(Compare(doc, "chain"));
}

}  // namespace
}  // namespace proton::format
