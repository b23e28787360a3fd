// Machine-readable text for --export and --fail-above (viewer.md §11.7, §11.8): JSON string
// literals, numbers in their shortest round-trip form, and a frame's path from the root.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/json_escape.h"  // AppendJsonString: the repository's one escaper
#include "viewer/common/tree_names.h"

namespace proton::viewer {

// Appends the shortest decimal text that reads back as `v` ("150", "0.25", "1e+20").
// Non-finite values are the caller's business (JSON has no NaN).
void AppendShortest(std::string& out, double v);

// The names of the frames from the root down to `n`, inclusive.
std::vector<std::string_view> FramePath(const ProfileTree& tree, NodeId n);

// `path` as a JSON list of strings: ["ROOT","add_phase"].
void AppendJsonPath(std::string& out, const std::vector<std::string_view>& path);

}  // namespace proton::viewer
