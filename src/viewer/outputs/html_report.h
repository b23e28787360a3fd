// --html FILE (viewer.md §11.12): one self-contained page (no network, no other file) with a
// flame graph of the printed tree, the sorted frame table, the devices and the command line.
#pragma once

#include <string>

#include "util/status.h"
#include "viewer/outputs/report_input.h"

namespace proton::viewer {

// The whole page: the embedded template with its style, the data of html_data.h and the
// script that draws it.
std::string BuildHtmlPage(const ReportInput& in);

// BuildHtmlPage written to `path`; "cannot write 'PATH': <strerror>" when that fails.
Status WriteHtmlReport(const std::string& path, const ReportInput& in);

}  // namespace proton::viewer
