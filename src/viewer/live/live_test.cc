// Tests of the live view's pieces (viewer.md §11.14): RUN's syntax and listing, the model's
// totals per stream and phase, and the block's text on known numbers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "viewer/live/live_totals.h"
#include "viewer/live/live_view.h"
#include "viewer/live/run_listing.h"

namespace proton::viewer {
namespace {

namespace fs = std::filesystem;

// ROOT/step/{matmul, add} with these times in ns, prepared as a read part is.
ProfileTree Part(double matmul, double add) {
  ProfileTree tree;
  const NodeId root = tree.AddNode(kNoNode, "ROOT");
  tree.SetInt(root, "time (ns)", 0);
  const NodeId step = tree.AddNode(root, "step");
  tree.SetInt(tree.AddNode(step, "matmul"), "time (ns)", static_cast<int64_t>(matmul));
  tree.SetInt(tree.AddNode(step, "add"), "time (ns)", static_cast<int64_t>(add));
  EXPECT_TRUE(PrepareProfile(tree, "part").ok());
  return tree;
}

void Add(LiveTotals& totals, size_t stream, int64_t phase, const ProfileTree& tree) {
  totals.AddPart(stream, phase, tree, ShapeOf(tree));
}

TEST(RunSpec, SplitsFolderAndPattern) {
  auto spec = ParseRunSpec("out/train.rank*");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->folder, "out");
  EXPECT_EQ(spec->pattern, "train.rank*");
  EXPECT_EQ(ParseRunSpec("run")->folder, ".");
  EXPECT_EQ(ParseRunSpec("/run")->folder, "/");
}

TEST(RunSpec, RefusesWhatCannotBeARunName) {
  for (const char* run : {"out/", "o*/run", "run[ab", "run.part_1.hatchet", "run.hatchet"}) {
    EXPECT_FALSE(ParseRunSpec(run).ok()) << run;
  }
  EXPECT_TRUE(ParseRunSpec("run[01]").ok());
}

TEST(RunListing, FindsPartsMarkersAndPlainFilesOfMatchingNames) {
  const fs::path dir = fs::temp_directory_path() / ("live_listing_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* name : {"run.rank0.part_0.hatchet", "run.rank1.part_3.hatchet_msgpack",
                           "run.rank0.done", "run.rank2.hatchet", "run.rank0.part_1.chrome_trace",
                           ".proton-1-0.tmp", "other.part_0.hatchet", "run.rank0.part_1.json"}) {
    std::ofstream(dir / name) << "x";
  }
  auto listing = ListRun(*ParseRunSpec((dir / "run.rank*").string()));
  ASSERT_TRUE(listing.ok()) << listing.status().message();
  ASSERT_EQ(listing->parts.size(), 2u);
  EXPECT_EQ(listing->plain.size(), 1u);
  EXPECT_EQ(listing->plain[0].prefix, (dir / "run.rank2").string());
  EXPECT_EQ(listing->ended, std::set<std::string>{(dir / "run.rank0").string()});
  fs::remove_all(dir);
  EXPECT_FALSE(ListRun(*ParseRunSpec((dir / "run").string())).ok());
}

TEST(LiveTotals, KeepsTotalsPerStreamAndFramesUntilShown) {
  LiveTotals totals;
  const size_t r0 = totals.Stream("run.rank0");
  const size_t r1 = totals.Stream("run.rank1");
  EXPECT_EQ(totals.Stream("run.rank0"), r0);
  Add(totals, r0, 0, Part(3e6, 1e6));
  Add(totals, r1, 0, Part(5e6, 1e6));
  Add(totals, r0, 1, Part(3e6, 2e6));
  const LivePhase& phase0 = totals.phases().at(0);
  EXPECT_EQ(phase0.totals, (std::vector<double>{4e6, 6e6}));
  EXPECT_EQ(phase0.frames[0], 10e6);  // ROOT, summed over the ranks
  EXPECT_TRUE(std::isnan(totals.phases().at(1).totals[r1]));
  EXPECT_EQ(totals.last_phase(), (std::vector<int64_t>{1, 0}));
  totals.MarkShown(0);
  EXPECT_EQ(totals.run_frames()[0], 10e6);
  totals.MarkShown(1);
  EXPECT_TRUE(totals.phases().at(0).frames.empty());  // only the phase on screen keeps them
  EXPECT_EQ(totals.run_frames()[0], 15e6);
  Add(totals, r1, 0, Part(1e6, 0));  // late: joins the run only
  EXPECT_EQ(totals.run_frames()[0], 16e6);
  EXPECT_EQ(totals.parts_read(), 4u);
}

TEST(LiveTotals, APartOfANewShapeIsMappedAgain) {
  LiveTotals totals;
  const size_t r0 = totals.Stream("run");
  Add(totals, r0, 0, Part(3e6, 1e6));
  ProfileTree other = Part(3e6, 1e6);
  other = ProfileTree();
  const NodeId root = other.AddNode(kNoNode, "ROOT");
  other.SetInt(root, "time (ns)", 0);
  other.SetInt(other.AddNode(other.AddNode(root, "step"), "softmax"), "time (ns)", 2000000);
  ASSERT_TRUE(PrepareProfile(other, "other").ok());
  EXPECT_NE(ShapeOf(other), ShapeOf(Part(3e6, 1e6)));
  EXPECT_EQ(ShapeOf(Part(1, 2)), ShapeOf(Part(3e6, 1e6)));  // values are no part of a shape
  Add(totals, r0, 1, other);
  EXPECT_EQ(totals.frames().size(), 5u);  // ROOT, step, matmul, add, softmax
  totals.MarkShown(0);
  totals.MarkShown(1);
  EXPECT_EQ(totals.phases().at(1).frames[4], 2e6);
}

TEST(LiveView, ShowsTheKnownNumbers) {
  LiveTotals totals;
  const size_t r0 = totals.Stream("run.rank0");
  const size_t r1 = totals.Stream("run.rank1");
  Add(totals, r0, 0, Part(3e6, 1e6));
  Add(totals, r1, 0, Part(3e6, 1e6));
  totals.MarkShown(0);
  Add(totals, r0, 1, Part(3e6, 1e6));
  Add(totals, r1, 1, Part(5e6, 1e6));
  totals.MarkShown(1);
  LiveViewStyle style;
  style.run = "run.rank*";
  const std::string block = RenderPhase(totals, 1, {"rank0", "rank1"}, style);
  EXPECT_EQ(block,
            "== phase 1 of 'run.rank*' (2 ranks) ==\n"
            "time/ms  10.000  (phase 0: 8.000, +25.0%)\n"
            "history  \u2587\u2588  phases 0-1, 8.000 to 10.000\n"
            "ranks    2 of 2; slowest rank1 6.000 (+20.0% over the median 5.000); fastest "
            "rank0 4.000\n"
            "kernels                         phase 1   share   run so far   share\n"
            "  matmul                          8.000   80.0%       14.000   77.8%\n"
            "  add                             2.000   20.0%        4.000   22.2%\n"
            "scopes                          phase 1   share   run so far   share\n"
            "  step                           10.000  100.0%       18.000  100.0%\n");
}

TEST(LiveView, KernelsThatDemangleToOneNameAreOneRow) {
  ProfileTree tree;
  const NodeId root = tree.AddNode(kNoNode, "ROOT");
  tree.SetInt(root, "time (ns)", 0);
  tree.SetInt(tree.AddNode(root, "_Z3fooIiEvv"), "time (ns)", 1000000);  // void foo<int>()
  tree.SetInt(tree.AddNode(root, "_Z3fooIfEvv"), "time (ns)", 2000000);  // void foo<float>()
  ASSERT_TRUE(PrepareProfile(tree, "part").ok());
  LiveTotals totals;
  Add(totals, totals.Stream("run"), 0, tree);
  totals.MarkShown(0);
  LiveViewStyle style;
  style.demangle = DemangleMode::kShort;
  const std::string block = RenderPhase(totals, 0, {"run"}, style);
  EXPECT_NE(block.find("\n  foo                             3.000  100.0%"), std::string::npos)
      << block;
  style.demangle = DemangleMode::kOff;
  EXPECT_NE(RenderPhase(totals, 0, {"run"}, style).find("_Z3fooIfEvv"), std::string::npos);
}

// A mangled kernel name runs to hundreds of bytes: in a pipe it is cut, and the list's
// title line still ends before the first row.
TEST(LiveView, LongNamesAreCutAndTheTitleLineStaysALine) {
  ProfileTree tree;
  const NodeId root = tree.AddNode(kNoNode, "ROOT");
  tree.SetInt(root, "time (ns)", 0);
  const std::string long_name = "_Z" + std::string(400, 'k');
  tree.SetInt(tree.AddNode(root, long_name), "time (ns)", 1000000);
  ASSERT_TRUE(PrepareProfile(tree, "part").ok());
  LiveTotals totals;
  Add(totals, totals.Stream("run"), 0, tree);
  totals.MarkShown(0);
  LiveViewStyle style;
  const std::string block = RenderPhase(totals, 0, {"run"}, style);
  const size_t title = block.find("kernels ");
  ASSERT_NE(title, std::string::npos) << block;
  const std::string title_line = block.substr(title, block.find('\n', title) - title);
  EXPECT_EQ(title_line.find(long_name.substr(0, 20)), std::string::npos) << title_line;
  EXPECT_NE(title_line.find("run so far"), std::string::npos) << title_line;
  EXPECT_EQ(block.find(long_name), std::string::npos);
  EXPECT_NE(block.find("\n  " + long_name.substr(0, 97) + "\u2026"), std::string::npos) << block;
  style.width = 300;  // a terminal wider than any fixed buffer
  const std::string wide = RenderPhase(totals, 0, {"run"}, style);
  EXPECT_NE(wide.find("share\n  _Z"), std::string::npos) << wide;
}

TEST(LiveView, SparklineBarsAreProportionalToTheLargest) {
  EXPECT_EQ(Sparkline({1, 2, 3}), "\u2583\u2586\u2588");
  EXPECT_EQ(Sparkline({2, 2}), "\u2588\u2588");
  EXPECT_EQ(Sparkline({1, kMissing, 8, 0}), "\u2581 \u2588\u2581");
  EXPECT_EQ(Sparkline({0, 0}), "\u2581\u2581");
}

}  // namespace
}  // namespace proton::viewer
