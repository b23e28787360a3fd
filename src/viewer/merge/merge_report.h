// --html and --speedscope with --merge (viewer.md §11.12): the merge printer's own input
// plus every FILE, so that both show exactly what the terminal prints.
#pragma once

#include <string>
#include <vector>

#include "viewer/common/options.h"
#include "viewer/merge/merge_profiles.h"
#include "viewer/outputs/report_input.h"

namespace proton::viewer {

// `merged.in.tree` must be set; the result points into `merged`. --merge=stats gives a
// kMerge report, --merge=sum a kSingle one over the summed tree.
ReportInput MakeMergeReport(const MergedProfiles& merged, MergeMode mode, const ViewOptions& view,
                            const std::vector<std::string>& argv);

}  // namespace proton::viewer
