// --export FILE (viewer.md §11.8): the printed tree as a table, one row per printed node (in
// print order, within -d), for pandas and other tools. The format follows the suffix: .csv
// or .jsonl (checked by the parser).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/printers.h"

namespace proton::viewer {

// Writes the table of `in` to `path`: columns path, name, depth, then one per -m item named
// by `items`. A file that cannot be created or written is a processing error.
Status ExportTable(const std::string& path, const PrintInput& in,
                   const std::vector<std::string>& items, int64_t depth);

}  // namespace proton::viewer
