// The trace reports (viewer.md §11.18) printed, and written by --export as a table: one row
// per (file, section, key), the columns of §11.18.
#pragma once

#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/ops/trace_report.h"

namespace proton::viewer {

// One section per trace, in FILE order.
std::string TraceReportText(const std::vector<TraceReport>& reports);

// FILE.csv or FILE.jsonl, replaced only once complete; errors "cannot write 'FILE': ...".
Status ExportTraceReports(const std::string& path, const std::vector<TraceReport>& reports);

// "12.345 ms", "3.000 us", "250 ns": the unit that keeps 1-3 digits before the point.
std::string FormatNs(int64_t ns);

}  // namespace proton::viewer
