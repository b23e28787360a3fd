// --fail-above PCT[,MIN] (viewer.md §11.7): the regression gate on a --diff-profile run. A
// frame fails when its first metric grew from DIFF_PROFILE (the baseline) to FILE by more
// than PCT percent of the baseline and by more than MIN.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "viewer/common/tree_names.h"

namespace proton::viewer {

struct GateInput {
  const ProfileTree* tree = nullptr;  // the diff union tree
  std::vector<double> now;            // per union node: FILE's first metric (kMissing if absent)
  std::vector<double> base;           // per union node: DIFF_PROFILE's first metric
  std::string label;                  // the first -m item, as given
  double pct = 0.0;
  double min = 0.0;
  std::string spec;  // PCT[,MIN] as typed
};

// Whether `now` grew from `base` past the gate. NaN on either side never fails.
bool GrewPast(double now, double base, double pct, double min);

// Hands `write` one line per failing frame present in both profiles, in print order (every
// depth: -d does not hide a regression), each ending in "\n", in chunks (a deep tree's lines
// grow with the depth, like its printed lines, so they are not gathered in memory). Returns
// whether some frame failed.
bool ReportGateFailures(const GateInput& in, const std::function<void(std::string_view)>& write);

}  // namespace proton::viewer
