// --trace-report --html FILE (viewer.md §11.18): one self-contained page (no script, no
// network) with, per trace, a timeline strip per stream (busy time as filled rectangles, idle
// time as empty space, the largest gaps highlighted with a tooltip) and the report's tables
// with the numbers of the printed report.
#pragma once

#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/ops/trace_report.h"

namespace proton::viewer {

// The whole page, one section per trace in FILE order.
std::string TraceReportHtml(const std::vector<TraceReport>& reports);

// TraceReportHtml written to `path`, replaced only once complete; errors
// "cannot write 'PATH': <strerror>".
Status WriteTraceReportHtml(const std::string& path, const std::vector<TraceReport>& reports);

}  // namespace proton::viewer
