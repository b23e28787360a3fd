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

// Parses argv[1..] (without the program name). Usage errors are Status::UsageError with the
// exact messages of §9.1 (without the "proton-viewer: error: " prefix).
Result<ViewerArgs> ParseViewerArgs(const std::vector<std::string>& args);

// The four-line usage block (§2.1), ending in "\n".
std::string_view UsageText();
// The whole -h text: usage block, blank line, description, options (lines ≤ 100 columns).
std::string_view HelpText();

}  // namespace proton::viewer
