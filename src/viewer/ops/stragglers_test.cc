// Tests of ComputeStragglers (viewer.md §11.15) on numbers with known answers.
#include "viewer/ops/stragglers.h"

#include <gtest/gtest.h>

#include <cmath>

namespace proton::viewer {
namespace {

// Four ranks over eight steps, each 10 in every step, except rank 2: 15 in steps 3-7.
StragglerInput SlowRankInput() {
  StragglerInput in;
  in.ranks = {"r0", "r1", "r2", "r3"};
  for (int64_t s = 0; s < 8; ++s) {
    in.steps.push_back(s);
    in.values.push_back({10, 10, s >= 3 ? 15.0 : 10.0, 10});
  }
  return in;
}

TEST(Stragglers, EachStepsSlowestRankAndItsLag) {
  const StragglerReport r = ComputeStragglers(SlowRankInput());
  ASSERT_EQ(r.steps.size(), 8u);
  EXPECT_EQ(r.steps[0].slowest, 0u);  // a tie: the first rank
  EXPECT_EQ(r.steps[0].lag, 0.0);
  for (size_t s = 3; s < 8; ++s) {
    EXPECT_EQ(r.steps[s].slowest, 2u);
    EXPECT_EQ(r.steps[s].median, 10.0);
    EXPECT_DOUBLE_EQ(r.steps[s].lag, 0.5);
    EXPECT_EQ(r.steps[s].ranks, 4u);
  }
}

TEST(Stragglers, PersistentMeansSlowInMoreThanHalfOfItsSteps) {
  const StragglerReport r = ComputeStragglers(SlowRankInput());
  EXPECT_EQ(r.rank_stats[2].slow, 5u);
  EXPECT_EQ(r.rank_stats[2].slowest, 5u);
  EXPECT_EQ(r.rank_stats[2].steps, 8u);
  EXPECT_TRUE(r.rank_stats[2].persistent);
  EXPECT_DOUBLE_EQ(r.rank_stats[2].median_lag, 0.5);
  EXPECT_FALSE(r.rank_stats[0].persistent);
  EXPECT_EQ(r.rank_stats[0].slowest, 3u);  // the ties of steps 0-2
  StragglerInput half = SlowRankInput();
  half.values[3][2] = 10;  // slow in 4 of 8: not more than half
  EXPECT_FALSE(ComputeStragglers(half).rank_stats[2].persistent);
}

TEST(Stragglers, MissingValuesAndTheThreshold) {
  StragglerInput in = SlowRankInput();
  in.values[5] = {10, kMissing, 10.4, kMissing};  // two ranks: median 10.2
  in.slow_pct = 60;                               // nothing is slow at 60%
  const StragglerReport r = ComputeStragglers(in);
  EXPECT_EQ(r.steps[5].ranks, 2u);
  EXPECT_DOUBLE_EQ(r.steps[5].median, 10.2);
  EXPECT_EQ(r.rank_stats[1].steps, 7u);
  EXPECT_EQ(r.rank_stats[2].slow, 0u);
  EXPECT_TRUE(std::isnan(r.Lag(5, 1)));
}

TEST(Stragglers, MedianOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
  EXPECT_EQ(MedianOf({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(MedianOf({5, kMissing, 1, 3}), 3.0);
  EXPECT_TRUE(std::isnan(MedianOf({kMissing})));
}

}  // namespace
}  // namespace proton::viewer
