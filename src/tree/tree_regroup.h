// Internal to the structural operations (tree_*.cc): grouping an old tree's nodes into the
// nodes of a new one (ProfileTree::Regrouped builds it, ProfileTree::Compact keeps a subset
// in place). Used by frame removal, filters (kept nodes, duplicates merged) and
// MergeDuplicates.
#pragma once

#include <cstdint>
#include <vector>

#include "tree/profile_tree.h"

namespace proton::tree {

// Walks `old` top-down keeping the nodes with keep[n] != 0 (all nodes if keep is empty).
// With merge, equal (name, type) siblings (after reduction) become one group whose children
// are the members' children united in order, merged again recursively (§3.7).
Grouping Regroup(const ProfileTree& old, const std::vector<uint8_t>& keep, bool merge);

// Whether some node has two children with equal (name, type). O(n).
bool HasDuplicates(const ProfileTree& tree);

}  // namespace proton::tree
