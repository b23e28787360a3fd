// Tests of missing-value addition (viewer.md §3.8).
#include "tree/nan_add.h"

#include <gtest/gtest.h>

#include <limits>

namespace proton::tree {
namespace {

TEST(NanAdd, SkipsMissingValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(NanAdd(1.5, 2.0), 3.5);
  EXPECT_EQ(NanAdd(nan, 2.0), 2.0);
  EXPECT_EQ(NanAdd(1.5, nan), 1.5);
  EXPECT_TRUE(std::isnan(NanAdd(nan, nan)));
  EXPECT_EQ(NanAdd(nan, 0.0), 0.0);  // a present zero is a value, not a missing one
}

}  // namespace
}  // namespace proton::tree
