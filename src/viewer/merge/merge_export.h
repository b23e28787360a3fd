// --export FILE with --merge=stats (viewer.md §11.11): one row per printed node and file
// holding it, with the file's own values and the node's statistics, for pandas.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/merge/merge_profiles.h"

namespace proton::viewer {

// Columns: path, name, depth, file (display name), file_id (position among the FILEs, from
// 0: what argmax holds), rank and phase (from the file's name, else null; file_id, rank and
// phase are the SQLite database's names, §11.13), each -m item (the file's value), then per
// item
// "<item>:min", ":median", ":mean", ":max", ":imbalance", ":argmax", then files (how many
// files hold the node). `merged.in.tree` must be set. Errors as ExportTable's.
Status ExportMergeTable(const std::string& path, const MergedProfiles& merged,
                        const std::vector<std::string>& items, int64_t depth);

}  // namespace proton::viewer
