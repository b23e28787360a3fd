// The JSON fast path must make exactly the tree the simdjson reader makes, on every document
// it accepts: differential test over every sample profile, reference profile and fuzz corpus
// input, plus hand-written edge cases that it must either read identically or hand over.
#include "format/json_fast_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "format/json_reader.h"
#include "viewer/profile_tree.h"

namespace proton::format {
namespace {

using viewer::NodeId;
using viewer::ProfileTree;

constexpr size_t kPad = 64;

std::string Bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return std::to_string(u);
}

// Everything observable of a finalized tree, as text.
std::string Dump(ProfileTree& t) {
  t.Finalize();
  std::ostringstream o;
  o << t.size() << "\n";
  for (NodeId n = 0; n < t.size(); ++n)
    o << t.parent(n) << " " << t.name(n) << "|" << t.type(n) << " " << t.has_metrics(n) << "\n";
  for (const auto& c : t.columns()) {
    o << c.key << " " << c.inclusive << " " << static_cast<int>(c.kind) << "\n";
    for (NodeId n = 0; n < t.size(); ++n)
      o << static_cast<int>(c.type[n]) << ":" << Bits(c.own[n]) << ":" << c.int_value(n) << ":"
        << c.str(n) << ":" << (c.inc.empty() ? "" : Bits(c.inc[n])) << " ";
    o << "\n";
  }
  for (const auto& e : t.devices().entries)
    o << e.device_type << "/" << e.device_index << " " << e.info.arch << e.info.has_arch << " "
      << Bits(e.info.bus_width) << Bits(e.info.clock_rate) << Bits(e.info.memory_clock_rate)
      << Bits(e.info.num_sms) << "\n";
  return o.str();
}

// Returns whether the fast path accepted `doc`; when it did, checks the trees are equal.
bool Compare(const std::string& doc, const std::string& what) {
  std::vector<char> buf(doc.size() + kPad, '\0');
  std::memcpy(buf.data(), doc.data(), doc.size());
  ProfileTree fast;
  if (!ParseJsonFast(buf.data(), doc.size(), fast)) return false;
  ProfileTree slow;
  EXPECT_EQ(ParseJson(buf.data(), doc.size(), buf.size(), slow, /*allow_fast=*/false), ReadFail::kNone)
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
  for (const char* dir : {"/tests/compat/viewer/profiles", "/tests/refdata", "/tests/fuzz/corpus/json_reader"}) {
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
  const std::string node = R"({"children": [], "frame": {"name": "k", "type": "function"}, "metrics": {"count": 1}})";
  struct Case {
    std::string doc;
    bool fast;
  };
  const Case cases[] = {
      {"[" + node + "]", true},
      {" \n\t[ " + node + " , {\"CUDA\": {\"0\": {\"arch\": \"90\", \"num_sms\": 132}}} ]\r\n", true},
      {R"([{"frame": {"name": "R"}, "metrics": {"a": NaN, "b": -Infinity, "c": null, "d": true, "e": "s", "f": 1e999, "g": 18446744073709551615, "h": -0.0}, "children": [{"frame": {"name": "x", "type": null}, "metrics": {}, "extra": 3}]}])", true},
      {R"([{"frame": {"name": "R", "name": "S"}, "frame": {"name": "T"}, "children": [], "children": [{"frame": {"name": "c"}}]}])", true},
      {"[" + node + "," + node + "]", false},          // second element not a device table
      {"[" + node + ", {}, 1]", false},                // three elements
      {R"([{"frame": {"name": "a\"b"}}])", false},     // escape
      {"[{\"frame\": {\"name\": \"\xC3\xA9\"}}]", false},  // non-ASCII
      {"[{\"frame\": {\"name\": \"a\tb\"}}]", false},   // control byte
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

TEST(JsonFastReader, DeepChainWithoutRecursion) {
  std::string doc = "[";
  const int depth = 100000;
  for (int i = 0; i < depth; ++i) doc += R"({"frame": {"name": "f"}, "metrics": {"t": 1}, "children": [)";
  doc += R"({"frame": {"name": "leaf"}})";
  for (int i = 0; i < depth; ++i) doc += "]}";
  doc += "]";
  EXPECT_TRUE(Compare(doc, "chain"));
}

}  // namespace
}  // namespace proton::format
