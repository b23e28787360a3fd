// Tests of the noise-aware gate (viewer.md §11.16): quartiles as Python's
// statistics.quantiles(method="inclusive"), and growth judged against the spread.
#include "viewer/ops/noise_gate.h"

#include <gtest/gtest.h>

#include <cmath>

#include "viewer/ops/fail_gate.h"

namespace proton::viewer {
namespace {

TEST(NoiseGate, QuartilesInterpolateLikePythonsInclusiveMethod) {
  // statistics.quantiles([95, 97, 100, 103, 108], n=4, method="inclusive") == [97, 100, 103]
  const Spread s = SpreadOf({100, 108, 95, 103, 97});
  EXPECT_EQ(s.n, 5u);
  EXPECT_EQ(s.q1, 97);
  EXPECT_EQ(s.median, 100);
  EXPECT_EQ(s.q3, 103);
  // [1, 2, 3, 4] -> [1.75, 2.5, 3.25]
  const Spread even = SpreadOf({4, 1, 3, 2});
  EXPECT_EQ(even.q1, 1.75);
  EXPECT_EQ(even.median, 2.5);
  EXPECT_EQ(even.q3, 3.25);
  const Spread one = SpreadOf({7, kMissing});
  EXPECT_EQ(one.n, 1u);
  EXPECT_EQ(one.iqr(), 0);
  EXPECT_EQ(SpreadOf({kMissing}).n, 0u);
}

TEST(NoiseGate, AGrowthMustLeaveTheSpread) {
  const Spread base = SpreadOf({92, 96, 100, 104, 108});                            // IQR 8
  EXPECT_FALSE(GrewBeyondNoise(SpreadOf({96, 100, 104, 108, 112}), base, 3, 0));    // +4 < 8
  EXPECT_TRUE(GrewBeyondNoise(SpreadOf({105, 109, 110, 111, 115}), base, 3, 0));    // +10 > 8
  EXPECT_FALSE(GrewBeyondNoise(SpreadOf({105, 109, 110, 111, 115}), base, 3, 11));  // MIN
  EXPECT_FALSE(GrewBeyondNoise(SpreadOf({105, 109, 110, 111, 115}), base, 15, 0));  // PCT
  EXPECT_FALSE(GrewBeyondNoise(Spread(), base, 0, 0));  // a side without the frame
}

TEST(NoiseGate, OneValuePerSideIsTheSingleFileGate) {
  for (double now : {90.0, 100.0, 104.9, 105.0, 105.1, 130.0}) {
    EXPECT_EQ(GrewBeyondNoise(SpreadOf({now}), SpreadOf({100}), 5, 0), GrewPast(now, 100, 5, 0))
        << now;
  }
}

TEST(NoiseGate, FailingFramesAreReportedInPrintOrder) {
  ProfileTree tree;
  const NodeId root = tree.AddNode(kNoNode, "ROOT");
  tree.AddNode(root, "k");
  tree.BuildStructure();
  NoiseGateInput in;
  in.tree = &tree;
  in.now = {SpreadOf({10, 11, 12}), SpreadOf({10, 11, 12})};
  in.base = {SpreadOf({10}), SpreadOf({5, 5})};
  in.label = "time/us";
  in.spec.push_back('5');  // (assigning a one-letter literal trips GCC 12's -Wrestrict)
  std::string err;
  EXPECT_TRUE(ReportNoiseGateFailures(in, [&](std::string_view text) { err.append(text); }));
  EXPECT_EQ(err,
            "proton-viewer: --fail-above 5: [\"ROOT\",\"k\"] time/us median grew from 5 to 11 "
            "(+6, +120%; IQR 0 over 2 baseline files, 1 over 3 files)\n");
}

}  // namespace
}  // namespace proton::viewer
