// Internal to the structural operations (tree_*.cc): rebuilding a ProfileTree whose nodes
// are groups of an old tree's nodes. Used by frame removal (groups of one node), filters
// (kept nodes, duplicates merged) and MergeDuplicates.
#pragma once

#include <cstdint>
#include <vector>

#include "viewer/profile_tree.h"

namespace proton::viewer {

// New node i (ids in pre-order) = old nodes members[begin[i] .. begin[i+1]), the first one
// being the representative whose name and type it takes.
struct Grouping {
  std::vector<NodeId> parent;   // per new node
  std::vector<uint64_t> begin;  // size = new nodes + 1
  std::vector<NodeId> members;
};

class TreeEditor {
 public:
  // Walks `old` top-down keeping the nodes with keep[n] != 0 (all nodes if keep is empty).
  // With merge, equal (name, type) siblings (after reduction) become one group whose
  // children are the members' children united in order, merged again recursively (§3.7).
  static Grouping Regroup(const ProfileTree& old, const std::vector<uint8_t>& keep, bool merge);

  // The tree of the groups: frames from the representative, values combined (§3.7: numeric
  // columns and extra columns summed skipping NaN, others the first member's). The result
  // has parent/depth/frames/columns; callers run BuildStructure()/ComputeInclusive().
  static ProfileTree Rebuild(const ProfileTree& old, const Grouping& grouping);

  // Keeps the nodes with keep[n] != 0 in place (no second tree, no new memory): valid
  // because the kept set is closed under ancestors and keeps relative order, so ids stay
  // pre-order and each kept node moves to a smaller or equal index. Names stay in the arena.
  // Callers run BuildStructure()/ComputeInclusive() (or Finalize()) afterwards.
  static void Compact(ProfileTree& t, const std::vector<uint8_t>& keep);

  // Whether some node has two children with equal (name, type). O(n).
  static bool HasDuplicates(const ProfileTree& tree);

 private:
  // Adds one node per group to `tree` (private fields: has_metrics_); returns the new id of
  // every old node that is a member of some group, kNoNode for the others.
  static std::vector<NodeId> AddGroupNodes(const ProfileTree& old, const Grouping& grouping,
                                           ProfileTree& tree);
};

}  // namespace proton::viewer
