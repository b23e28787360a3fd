// --speedscope FILE (viewer.md §11.12): the printed tree in speedscope's file format
// (https://www.speedscope.app/file-format-schema.json), one "sampled" profile whose samples
// are the printed frames' stacks, weighted by each frame's own share of the first column.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"
#include "viewer/outputs/report_input.h"

namespace proton::viewer {

// speedscope's unit for the first column: "nanoseconds" ... "seconds", "bytes" or "none".
std::string_view SpeedscopeUnit(std::string_view item, std::string_view label);

// The JSON document. A frame's weight is its value minus its printed children's values
// (never below 0; NaN counts as 0), and frames below -d count in their printed ancestor, so
// for an inclusive column the weights add up to ROOT's value.
std::string BuildSpeedscope(const ReportInput& in);

Status WriteSpeedscope(const std::string& path, const ReportInput& in);

}  // namespace proton::viewer
