// proton-viewer's command line (viewer.md §2): the reference's options and ours, scanned by the
// argparse engine (util/argparse.h: prefixes, clusters, `-diff`, the negative-number rule, `--`,
// `-`), the value types (Python float()/int()), the post-scan checks in their order, and the
// help text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"
#include "viewer/common/options.h"

namespace proton::viewer {

// Parses argv[1..] (without the program name) into the typed options. Usage errors are
// Status::UsageError with the exact messages of §9.1 (without the "proton-viewer: error: "
// prefix).
Result<ViewerOptions> ParseViewerArgs(const std::vector<std::string>& args);

// The checks of the options that the Python API (src/python_viewer) takes as typed values:
// the parser calls them for what it scans and the binding for what it is given, so that there
// is one check and one message. Each takes the value as text, converts it as the command line
// does and returns the usage error the command prints.
// -m: the comma-separated items, trimmed ("" = no metrics); an empty item is an error.
Status SetMetrics(ViewOptions& view, const std::string& text);
// -t: Python float(); 0 turns the threshold off. Finite is checked by CheckThresholdFinite.
Status SetThreshold(ViewOptions& view, const std::string& value);
// -d: Python int().
Status SetDepth(ViewOptions& view, const std::string& value);
// -f: one of full, file_function_line, function_line, file_function.
Status SetFormat(ViewOptions& view, const std::string& value);
// -i and -e together are refused.
Status CheckIncludeExclude(const ViewOptions& view);
// With metrics, the threshold must be finite (as the reference fails once it filters).
Status CheckThresholdFinite(const ViewOptions& view);

// --follow's -m (§11.14): nothing (time/ms) or one of time/s, time/ms, time/us, time/ns; the
// item's units per nanosecond, or the usage error.
Result<double> FollowUnitsPerNs(const std::vector<std::string>& metrics);

// The four-line usage block (§2.1), ending in "\n".
std::string_view UsageText();
// The whole -h text: usage block, blank line, description, options (lines ≤ 100 columns).
std::string_view HelpText();

}  // namespace proton::viewer
