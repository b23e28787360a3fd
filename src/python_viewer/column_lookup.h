// Finds the displayed columns that labels name (viewer.md §4.6): print_tree, filter_frames and
// apply_diff_profile receive labels, as derive_metrics returns them, rather than -m items.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"
#include "view_state.h"
#include "viewer/ops/metrics.h"
#include "viewer/outputs/printers.h"

namespace proton::python_viewer {

// A column derived so far whose label is `label`, else the raw column that label names
// ("<key> (inc)" for an inclusive metric, "<key>" for an exclusive numeric one).
std::optional<viewer::ColumnRef> FindColumn(const viewer::Prepared& profile,
                                            std::string_view label);

// FindColumn for each label, in order; an error names the first label not found.
Result<std::vector<viewer::ColumnRef>> SelectColumns(const viewer::Prepared& profile,
                                                     const std::vector<std::string>& labels);

// The printer's input showing the columns `labels` name: of the profile, or for a difference
// of the columns it was made with.
Status SelectShownColumns(const ViewState& state, const std::vector<std::string>& labels,
                          viewer::PrintInput* in);

}  // namespace proton::python_viewer
