// Addition that skips missing values (viewer.md §3.8): inclusive sums and merged duplicates
// add the values that exist, and stay NaN (missing) only when both operands are.
#pragma once

#include <cmath>

namespace proton::tree {

inline double NanAdd(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return a + b;
}

}  // namespace proton::tree
