// Checks of the tree's documented invariants (profile_tree.h), run where a tree is built or
// edited: readers' output, ProfileTree's Regrouped and Compact, the diff union, the child
// lists. They walk the whole tree, so they exist only where PROTON_DCHECK is on (debug and
// sanitizer builds); elsewhere they compile to nothing. A failure is a bug of ours, never of
// the input: every input gives a tree that satisfies them.
#pragma once

#include "tree/profile_tree.h"
#include "util/check.h"

namespace proton::tree {

#if PROTON_DCHECK_IS_ON
// Ids in pre-order: node 0 is the only root (depth 0), each later node's parent is the previous
// node or one of its ancestors, and its depth is its parent's + 1.
void DcheckPreOrder(const ProfileTree& tree);
// After BuildStructure: children(n) lists exactly the nodes whose parent is n, in ascending id
// (file) order, and sorted_children(n) as many.
void DcheckChildLists(const ProfileTree& tree);
#else
inline void DcheckPreOrder(const ProfileTree&) {}
inline void DcheckChildLists(const ProfileTree&) {}
#endif

}  // namespace proton::tree
