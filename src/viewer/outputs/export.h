// --export FILE (viewer.md §11.8): the printed tree as a table, one row per printed node (in
// print order, within -d), for pandas and other tools. The format follows the suffix: .csv
// or .jsonl (output_formats.h's table, which the parser checks against).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"
#include "viewer/outputs/print_depth.h"
#include "viewer/outputs/printers.h"

namespace proton::viewer {

// What --merge's table (merge_export.h) shares with this one: the rows' order and paths,
// and the cells of both formats.
// Calls row(n, frames) for every node the printer shows within `depth` (§7.2), in print
// order; `frames` holds the names from ROOT to n.
template <class RowFn>
void ForEachExportedRow(const ProfileTree& tree, int64_t depth, RowFn&& row) {
  std::vector<std::string_view> frames;
  ForEachPrintedNode(tree, depth, [&](NodeId n, bool) {
    frames.resize(tree.depth(n));
    frames.push_back(tree.name(n));
    row(n, frames);
  });
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
void AppendCsvField(std::string& out, std::string_view s);
// CSV: NaN is an empty field; infinities are "inf" and "-inf", as pandas reads them.
void AppendCsvNumber(std::string& out, double v);
// JSON has no NaN or infinity: both are null (pandas reads null as NaN).
void AppendJsonNumber(std::string& out, double v);

// Writes the table of `in` to `path`: columns path, name, depth, then one per -m item named
// by `items`. A file that cannot be created or written is a processing error.
Status ExportTable(const std::string& path, const PrintInput& in,
                   const std::vector<std::string>& items, int64_t depth);

}  // namespace proton::viewer
