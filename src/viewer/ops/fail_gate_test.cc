// Tests for the --fail-above judgement (viewer.md §11.7).
#include "viewer/ops/fail_gate.h"

#include <gtest/gtest.h>

namespace proton::viewer {
namespace {

TEST(FailGate, GrewPast) {
  EXPECT_TRUE(GrewPast(111, 100, 10, 0));
  EXPECT_FALSE(GrewPast(110, 100, 10, 0));   // by exactly PCT: not more
  EXPECT_FALSE(GrewPast(111, 100, 10, 11));  // by exactly MIN: not more
  EXPECT_TRUE(GrewPast(111, 100, 10, 10.5));
  EXPECT_FALSE(GrewPast(5, 0.5, 10, 20));  // below MIN in both: noise
  EXPECT_TRUE(GrewPast(1, 0, 10, 0));      // from zero: any growth past MIN
  EXPECT_FALSE(GrewPast(90, 100, 0, 0));   // shrinking never fails
  EXPECT_TRUE(GrewPast(-5, -10, 10, 0));   // percent of |base|
  EXPECT_FALSE(GrewPast(kMissing, 1, 0, 0));
  EXPECT_FALSE(GrewPast(5, kMissing, 0, 0));
}

}  // namespace
}  // namespace proton::viewer
