// Tests for the --html page's data and page assembly: print order, -f names, kinds, numbers,
// diff and merge arrays, and that no name can close the <script> element holding the data.
#include "viewer/outputs/html_data.h"

#include <gtest/gtest.h>

#include <limits>

#include "viewer/outputs/html_report.h"
#include "viewer/outputs/merge_columns.h"

namespace proton::viewer {
namespace {

// ROOT -> {x/b.py:3@f -> {k}, a}; file order b before a, printed (and paged) sorted.
struct Fixture {
  ProfileTree tree;
  PrintInput print;
  DeviceTable devices;
  ReportInput report;

  explicit Fixture(std::string_view a_name = "a") {
    const NodeId root = tree.AddNode(kNoNode, "ROOT");
    tree.SetInt(root, "count", 0);
    const NodeId b = tree.AddNode(root, "x/b.py:3@f");
    tree.SetInt(b, "count", 1);
    const NodeId k = tree.AddNode(b, "k");
    tree.SetInt(k, "count", 2);
    const NodeId a = tree.AddNode(root, a_name);
    tree.SetInt(a, "count", 4);
    EXPECT_TRUE(PrepareProfile(tree, "x").ok());
    print.tree = &tree;
    print.columns.push_back({7, 3, 2, 4});  // by node id: ROOT, b, k, a
    print.columns.push_back({kMissing, 0.5, std::numeric_limits<double>::infinity(), -2});
    print.labels = {"count (inc)", "time/us (inc)"};
    devices.entries.push_back({"CUDA", "0", {"90", true, 5120, 1755000, 2619000, 132}});
    report.print = &print;
    report.items = {"count", "time/us"};
    report.command = {"proton-viewer", "-m", "count,time/us", "p.hatchet"};
    report.profiles.push_back({"p.hatchet", &devices});
  }
};

bool Contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(HtmlData, NodesInPrintOrderWithKindsAndNumbers) {
  Fixture f;
  const std::string json = BuildPageData(f.report);
  EXPECT_TRUE(Contains(json, "\"mode\":\"single\"")) << json;
  EXPECT_TRUE(Contains(json, "\"size\":4,\"parent\":[-1,0,0,2]")) << json;
  EXPECT_TRUE(Contains(json, "\"name\":[0,1,2,3],\"names\":[\"ROOT\",\"a\",\"x/b.py:3@f\",\"k\"]"))
      << json;
  EXPECT_FALSE(Contains(json, "\"fullNames\":")) << "-f full: the names are the stored names";
  EXPECT_TRUE(Contains(json, "\"kind\":[0,3,2,3]")) << json;
  EXPECT_TRUE(Contains(json, "\"values\":[[7,4,3,2],[null,-2,0.5,1e999]]")) << json;
  EXPECT_TRUE(Contains(json, "\"columns\":[{\"item\":\"count\",\"label\":\"count (inc)\"},"))
      << json;
  EXPECT_TRUE(Contains(json,
                       "{\"profile\":0,\"type\":\"CUDA\",\"index\":\"0\",\"arch\":\"90\","
                       "\"bus_width\":5120,\"clock_rate\":1755000,"
                       "\"memory_clock_rate\":2619000,\"num_sms\":132}"))
      << json;
  EXPECT_FALSE(Contains(json, "\"side\":"));
}

TEST(HtmlData, EachNameIsWrittenOnce) {
  Fixture f("k");  // ROOT -> {k, x/b.py:3@f -> {k}} in print order
  const std::string json = BuildPageData(f.report);
  EXPECT_TRUE(Contains(json, "\"name\":[0,1,2,1],\"names\":[\"ROOT\",\"k\",\"x/b.py:3@f\"]"))
      << json;
}

TEST(HtmlData, FormattedNamesKeepTheStoredOnes) {
  Fixture f;
  f.report.format = NameFormat::kFileFunctionLine;
  const std::string json = BuildPageData(f.report);
  EXPECT_TRUE(Contains(json, "\"names\":[\"ROOT\",\"a\",\"b.py:3@f\",\"k\"]")) << json;
  EXPECT_TRUE(Contains(json, "\"fullNames\":[\"ROOT\",\"a\",\"x/b.py:3@f\",\"k\"]")) << json;
}

TEST(HtmlData, DiffArrays) {
  Fixture f;
  f.print.sides = {Side::kBoth, Side::kLeftOnly, Side::kBoth, Side::kRightOnly};
  f.print.row_order = {0, 1, 2, 3};  // by node id
  f.report.mode = ReportMode::kDiff;
  f.report.profiles.push_back({"old.hatchet", nullptr});
  f.report.now = {7, 3, 2, kMissing};
  f.report.base = {5, kMissing, 1, 4};
  const std::string json = BuildPageData(f.report);
  EXPECT_TRUE(Contains(json, "\"mode\":\"diff\"")) << json;
  EXPECT_TRUE(Contains(json, "\"profiles\":[\"p.hatchet\",\"old.hatchet\"]")) << json;
  EXPECT_TRUE(Contains(json, "\"side\":[0,2,1,0]")) << json;
  EXPECT_TRUE(Contains(json, "\"now\":[7,null,3,2],\"base\":[5,4,null,1]")) << json;
  EXPECT_TRUE(Contains(json, "\"rowOrder\":[0,2,3,1]")) << json;
}

// The merge printer's columns for one item (median, min, mean, max, imbalance, argmax, by
// node id: ROOT, b, k, a) and "files", over three files; `a` is in two of them.
void UseMergeColumns(Fixture& f) {
  f.print.columns = {{7, 3, 2, 4},           {6, 3, 1, 4}, {7, 3, 2, 5}, {8, 3, 3, 6},
                     {8.0 / 7, 1, 1.5, 1.2}, {2, 0, 1, 1}, {3, 3, 3, 2}};
  f.print.labels = {"count (inc):median",
                    "count (inc):min",
                    "count (inc):mean",
                    "count (inc):max",
                    "count (inc):imbalance",
                    "count (inc):argmax",
                    "files"};
  f.report.mode = ReportMode::kMerge;
  f.report.items = {"count"};
  f.report.profiles = {
      {"r0.hatchet", &f.devices}, {"r1.hatchet", nullptr}, {"r2.hatchet", nullptr}};
}

TEST(HtmlData, MergeSpreadBesideTheMedians) {
  Fixture f;
  UseMergeColumns(f);
  ASSERT_EQ(MergeColumn(0, MergeStat::kArgmax), 5u);
  const std::string json = BuildPageData(f.report);
  EXPECT_TRUE(Contains(json, "\"mode\":\"merge\"")) << json;
  EXPECT_TRUE(Contains(json, "\"profiles\":[\"r0.hatchet\",\"r1.hatchet\",\"r2.hatchet\"]"))
      << json;
  EXPECT_TRUE(Contains(json, "\"columns\":[{\"item\":\"count\",\"label\":\"count (inc)\"}]"))
      << json;
  // Print order is ROOT, a, b, k.
  EXPECT_TRUE(Contains(json, "\"values\":[[7,4,3,2]]")) << "the medians only: " << json;
  EXPECT_TRUE(Contains(json,
                       "\"spread\":[{\"min\":[6,4,3,1],\"mean\":[7,5,3,2],\"max\":[8,6,3,3],"
                       "\"imbalance\":[1.1428571428571428,1.2,1,1.5],\"argmax\":[2,1,0,1]}]"))
      << json;
  EXPECT_TRUE(Contains(json, "\"files\":[3,2,3,3]")) << json;
  EXPECT_TRUE(Contains(json, "{\"profile\":0,\"type\":\"CUDA\"")) << json;
  EXPECT_FALSE(Contains(json, "\"side\":")) << json;
}

TEST(HtmlData, SingleAndDiffHaveNoSpread) {
  Fixture f;
  EXPECT_FALSE(Contains(BuildPageData(f.report), "\"spread\":"));
  f.report.profiles.push_back({"q.hatchet", nullptr});  // --merge=sum: one summed profile
  const std::string json = BuildPageData(f.report);
  EXPECT_TRUE(Contains(json, "\"mode\":\"single\"")) << json;
  EXPECT_FALSE(Contains(json, "\"files\":")) << json;
}

TEST(HtmlData, NamesCannotCloseTheScript) {
  Fixture f("</script><img src=x onerror=alert(1)>&\"'");
  const std::string json = BuildPageData(f.report);
  EXPECT_FALSE(Contains(json, "<")) << json;
  EXPECT_TRUE(Contains(json, "\\u003c/script>\\u003cimg src=x onerror=alert(1)>&\\\"'")) << json;
  const std::string page = BuildHtmlPage(f.report);
  size_t scripts = 0;
  for (size_t at = page.find("</script>"); at != std::string::npos;
       at = page.find("</script>", at + 1)) {
    ++scripts;
  }
  EXPECT_EQ(scripts, 2u) << "only the data and the code elements are closed";
  EXPECT_FALSE(Contains(page, "/*PROTON_")) << "every marker is filled";
  EXPECT_TRUE(Contains(page, "window.protonReport"));
}

TEST(HtmlData, PythonFrameNames) {
  EXPECT_TRUE(IsPythonFrameName("/home/u/train.py:34@main"));
  EXPECT_TRUE(IsPythonFrameName("proton:10@<module>"));
  EXPECT_TRUE(IsPythonFrameName("a@b:1@f"));
  EXPECT_FALSE(IsPythonFrameName("kernel@sm90"));
  EXPECT_FALSE(IsPythonFrameName(":@f"));
  EXPECT_FALSE(IsPythonFrameName("1@f"));
  EXPECT_FALSE(IsPythonFrameName("add_kernel"));
}

}  // namespace
}  // namespace proton::viewer
