// The steps of proton-viewer between reading and printing (viewer.md §6, §8) as functions, so
// that the command and the Python API (src/python_viewer) build the very same PrintInput.
#pragma once

#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/common/options.h"
#include "viewer/common/tree_names.h"
#include "viewer/ops/metrics.h"
#include "viewer/outputs/printers.h"

namespace proton::viewer {

// One profile after steps 2-4 of §8.
struct Prepared {
  ProfileTree tree;
  std::vector<ColumnRef> columns;
  std::string display_name;
};

// Reads `path`, resolves view.metrics and applies the filters of `view`.
Result<Prepared> Prepare(const std::string& path, const ViewOptions& view);

// §6: every column must be inclusive on both sides or exclusive on both.
Status CheckComparable(const Prepared& left, const Prepared& right);

// The printer's view of one profile: its tree and one value array per column.
void FillPlain(const Prepared& p, PrintInput& in);

// §6 values over the union `u` of left and right (FILE − OTHER), with the side markers and
// the row order of --print-sorted. `in.tree` is left for the caller to point at u.tree.
void FillDiff(const DiffUnion& u, const Prepared& left, const Prepared& right, PrintInput& in);

}  // namespace proton::viewer
