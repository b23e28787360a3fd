// --stragglers over a --merge=stats run (viewer.md §11.15): each FILE is one rank's part of
// one step, told apart by its name (`<rank prefix>.part_<step>.<format>`, common/run_names.h);
// the step totals are the first -m column at ROOT of each file, as merged, and each step's lag
// is explained by the printed frame without children where the slowest rank spent the most
// beyond the step's median.
#pragma once

#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/merge/merge_profiles.h"
#include "viewer/ops/stragglers.h"

namespace proton::viewer {

// Checks the FILE names before anything is read (usage errors): every FILE is a part file,
// no rank has two parts of one step, and there are two ranks or more.
Status CheckStragglerFiles(const std::vector<std::string>& files);

// The report of `merged` (from MergeProfiles over `files` with --merge=stats); `item` is the
// first -m item.
StragglerReport BuildStragglers(const MergedProfiles& merged, const std::vector<std::string>& files,
                                const std::string& item, double slow_pct);

}  // namespace proton::viewer
