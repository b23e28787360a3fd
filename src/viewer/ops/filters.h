// The -i / -e / -t filters (viewer.md §5): activation rules, pattern errors, the matched-node
// bitmaps, and the empty-result errors. The structural work (kept sets, reduction, merging,
// inclusive recomputation) is ApplyFilter in profile_tree.h.
#pragma once

#include <string_view>

#include "util/status.h"
#include "viewer/common/options.h"
#include "viewer/common/tree_names.h"
#include "viewer/ops/metrics.h"

namespace proton::viewer {

// Applies include, exclude and threshold in that order, each only when active (§5.1). The
// threshold tests `first` (column 1) on the tree as left by the filters before it.
Status ApplyFilters(ProfileTree& tree, const ViewOptions& view, const ColumnRef& first,
                    std::string_view display_name);

}  // namespace proton::viewer
