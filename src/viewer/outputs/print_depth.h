// -d DEPTH (viewer.md §7.2): which frames the printed tree shows. The one rule for every output
// that draws the printed tree (the printer, --export, --speedscope), so that they all cut at
// the same frame. ROOT is at depth 0; -d N shows depths 0 .. N-1, and nothing when N <= 0.
#pragma once

#include <cstdint>

#include "viewer/common/tree_names.h"

namespace proton::viewer {

// Whether anything of `tree` is shown under -d `limit`.
inline bool PrintsAnything(const ProfileTree& tree, int64_t limit) {
  return limit > 0 && tree.size() > 0;
}

// Whether the children of a shown frame at `depth` are shown too.
inline bool PrintsChildren(uint32_t depth, int64_t limit) {
  return static_cast<int64_t>(depth) + 1 < limit;
}

// Calls visit(n, children_printed) for every shown frame, in print order (sorted pre-order).
template <class Visit>
void ForEachPrintedNode(const ProfileTree& tree, int64_t limit, Visit&& visit) {
  if (!PrintsAnything(tree, limit)) return;
  ForEachSortedPreOrder(tree, [&](NodeId n) {
    const bool children = PrintsChildren(tree.depth(n), limit);
    visit(n, children);
    return children;
  });
}

}  // namespace proton::viewer
