// Tests for --speedscope: own weights, -d folding, shared frames, units.
#include "viewer/outputs/speedscope.h"

#include <gtest/gtest.h>

namespace proton::viewer {
namespace {

bool Contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// ROOT(10) -> {s(6) -> {k(4)}, k(3)}: own weights ROOT 1, k 3, s 2, s/k 4.
struct Fixture {
  ProfileTree tree;
  PrintInput print;
  ReportInput report;

  Fixture() {
    const NodeId root = tree.AddNode(kNoNode, "ROOT");
    tree.SetInt(root, "count", 0);
    const NodeId s = tree.AddNode(root, "s");
    tree.SetInt(s, "count", 1);
    const NodeId k1 = tree.AddNode(s, "k");
    tree.SetInt(k1, "count", 1);
    const NodeId k2 = tree.AddNode(root, "k");
    tree.SetInt(k2, "count", 1);
    EXPECT_TRUE(PrepareProfile(tree, "x").ok());
    print.tree = &tree;
    print.columns.push_back({10, 6, 4, 3});  // by node id: ROOT, s, s/k, k
    print.labels = {"time/us (inc)"};
    report.print = &print;
    report.items = {"time/us"};
    report.profiles.push_back({"p.hatchet", nullptr});
  }
};

TEST(Speedscope, OwnWeightsAddUpToRoot) {
  Fixture f;
  const std::string json = BuildSpeedscope(f.report);
  EXPECT_TRUE(Contains(json, "\"$schema\":\"https://www.speedscope.app/file-format-schema.json\""));
  EXPECT_TRUE(Contains(json, "\"frames\":[{\"name\":\"ROOT\"},{\"name\":\"k\"},{\"name\":\"s\"}]"))
      << json;
  EXPECT_TRUE(Contains(json,
                       "\"unit\":\"microseconds\",\"startValue\":0,\"endValue\":10,"
                       "\"samples\":[[0],[0,1],[0,2],[0,2,1]],\"weights\":[1,3,2,4]"))
      << json;
}

TEST(Speedscope, DepthFoldsIntoThePrintedAncestor) {
  Fixture f;
  f.report.depth = 2;
  const std::string json = BuildSpeedscope(f.report);
  EXPECT_TRUE(Contains(json, "\"samples\":[[0],[0,1],[0,2]],\"weights\":[1,3,6]")) << json;
  f.report.depth = 0;
  EXPECT_TRUE(Contains(BuildSpeedscope(f.report), "\"samples\":[],\"weights\":[]"));
}

TEST(Speedscope, NamedByTheMergeWhenThereIsOne) {
  Fixture f;
  EXPECT_TRUE(Contains(BuildSpeedscope(f.report), "\"name\":\"p.hatchet\""));
  f.report.title = "<merge of 2 files>";
  f.report.profiles.push_back({"q.hatchet", nullptr});
  const std::string json = BuildSpeedscope(f.report);
  EXPECT_TRUE(Contains(json, "\"exporter\":\"proton-viewer\",\"name\":\"<merge of 2 files>\""))
      << json;
}

TEST(Speedscope, Units) {
  EXPECT_EQ(SpeedscopeUnit("time/ms", "time/ms (inc)"), "milliseconds");
  EXPECT_EQ(SpeedscopeUnit("time", "time (ns) (inc)"), "nanoseconds");
  EXPECT_EQ(SpeedscopeUnit("bytes", "bytes (inc)"), "bytes");
  EXPECT_EQ(SpeedscopeUnit("count", "count (inc)"), "none");
  EXPECT_EQ(SpeedscopeUnit("time/%", "time/% (inc)"), "none");
}

}  // namespace
}  // namespace proton::viewer
