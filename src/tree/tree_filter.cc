// Filter kept sets (§5.3, §12) and the reduction that follows each filter (§5.4), plus the
// duplicate merge used before diffs (§3.7). All passes are loops over pre-order ids.
#include "tree/profile_tree.h"
#include "tree/tree_regroup.h"

namespace proton::tree {

std::vector<uint8_t> KeptNodes(const ProfileTree& tree, FilterKind kind,
                               const std::vector<uint8_t>& matched) {
  const size_t n_nodes = tree.size();
  std::vector<uint8_t> kept(n_nodes, 0);
  auto is_match = [&](NodeId n) { return n < matched.size() && matched[n] != 0; };
  switch (kind) {
    case FilterKind::kExclude:
      // Removed = matches and their descendants (top-down); kept = the rest, which is
      // closed under ancestors by construction.
      for (NodeId n = 0; n < n_nodes; ++n) {
        const NodeId p = tree.parent(n);
        const bool removed = is_match(n) || (p != kNoNode && kept[p] == 0);
        kept[n] = removed ? 0 : 1;
      }
      break;
    case FilterKind::kInclude:
      // Down: matches and their descendants.
      for (NodeId n = 0; n < n_nodes; ++n) {
        const NodeId p = tree.parent(n);
        if (is_match(n) || (p != kNoNode && kept[p] & 1)) kept[n] = 1;
      }
      [[fallthrough]];
    case FilterKind::kThreshold: {
      // Up: ancestors of matches (bit 2), children before parents in reverse id order.
      for (size_t i = n_nodes; i-- > 0;) {
        const NodeId n = static_cast<NodeId>(i);
        if (is_match(n) || (kept[n] & 2)) {
          kept[n] |= 2;
          if (n != 0) kept[tree.parent(n)] |= 2;
        }
      }
      for (auto& k : kept) k = k != 0;
      break;
    }
  }
  return kept;
}

bool ReduceTree(ProfileTree& tree, const std::vector<uint8_t>& kept) {
  if (tree.size() == 0 || kept.size() < tree.size() || kept[0] == 0) return false;
  bool all = true;
  for (size_t n = 0; n < tree.size() && all; ++n) all = kept[n] != 0;
  if (all && !HasDuplicates(tree)) {
    tree.ComputeInclusive();  // nothing removed: the sums are unchanged, but keep the contract
    return true;
  }
  if (!all) {
    // Reduce in place first (cheap, no new tree); merge only if duplicates remain.
    tree.Compact(kept);
    tree.BuildStructure();
    if (!HasDuplicates(tree)) {
      tree.ComputeInclusive();
      return true;
    }
  }
  Grouping g = Regroup(tree, {}, /*merge=*/true);
  tree = tree.Regrouped(g);
  tree.BuildStructure();
  tree.ComputeInclusive();
  return true;
}

bool ApplyFilter(ProfileTree& tree, FilterKind kind, const std::vector<uint8_t>& matched) {
  return ReduceTree(tree, KeptNodes(tree, kind, matched));
}

void MergeDuplicates(ProfileTree& tree) {
  if (!HasDuplicates(tree)) return;
  Grouping g = Regroup(tree, {}, /*merge=*/true);
  tree = tree.Regrouped(g);
  tree.BuildStructure();
  tree.ComputeInclusive();
}

}  // namespace proton::tree
