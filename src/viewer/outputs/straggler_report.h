// --stragglers' outputs (viewer.md §11.15): the report on standard output and its table for
// --export (one row per step and rank). The --html page draws it too (html_data.h).
#pragma once

#include <string>

#include "util/status.h"
#include "viewer/ops/stragglers.h"

namespace proton::viewer {

// The printed report: one line per step, then the persistent stragglers. Ends in "\n".
std::string StragglerText(const StragglerReport& report);

// --export FILE (.csv or .jsonl): per step and rank with a value, in step then rank order:
// step, rank, file, <item>, median, lag, slowest, slow, persistent, top_frame, top_excess.
Status ExportStragglers(const std::string& path, const StragglerReport& report);

}  // namespace proton::viewer
