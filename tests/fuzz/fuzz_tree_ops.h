// Shared by the reader fuzz targets: after a successful read, run every structural
// operation on the tree (removal, filters with data-derived match sets, merge, diff) and
// check the invariants the rest of the viewer relies on. A violated invariant traps, which
// libFuzzer (and the corpus replay test) reports as a crash.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tree/profile_tree.h"

namespace proton::fuzz {

inline void Check(bool ok) {
  if (!ok) __builtin_trap();
}

inline void CheckTree(const tree::ProfileTree& t) {
  using tree::NodeId;
  if (t.size() == 0) return;
  Check(t.parent(0) == tree::kNoNode && t.depth(0) == 0);
  size_t kids = 0;
  for (NodeId n = 1; n < t.size(); ++n) {
    Check(t.parent(n) < n);  // pre-order ids
    Check(t.depth(n) == t.depth(t.parent(n)) + 1);
  }
  for (NodeId n = 0; n < t.size(); ++n) {
    kids += t.children(n).size();
    Check(t.children(n).size() == t.sorted_children(n).size());
    for (NodeId c : t.children(n)) Check(t.parent(c) == n);
  }
  Check(kids == t.size() - 1);
  for (const auto& col : t.columns()) {
    Check(col.type.size() == t.size() && col.own.size() == t.size());
    if (!col.inc.empty()) Check(col.inc.size() == t.size());
  }
  Check(tree::SortedPreOrder(t).size() == t.size());
}

// Runs filters, merge and diff with match sets derived from `seed`.
inline void ExerciseTree(tree::ProfileTree t, const uint8_t* data, size_t size) {
  using namespace tree;
  CheckTree(t);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size && i < 64; ++i) h = (h ^ data[i]) * 1099511628211ull;
  auto matches = [&](const ProfileTree& tree, uint64_t salt) {
    std::vector<uint8_t> m(tree.size());
    for (size_t n = 0; n < m.size(); ++n)
      m[n] = ((h + salt) >> (n % 61)) & 1 && (n * 7 + salt) % 3 == 0;
    return m;
  };
  ExtraColumn extra{"x", std::vector<double>(t.size(), 1.0)};
  t.extra_columns().push_back(extra);
  ProfileTree other = t;
  for (FilterKind k : {FilterKind::kInclude, FilterKind::kThreshold, FilterKind::kExclude}) {
    ProfileTree copy = t;
    std::vector<uint8_t> kept = KeptNodes(copy, k, matches(copy, static_cast<uint64_t>(k)));
    // The kept set is closed under ancestors.
    for (NodeId n = 1; n < copy.size(); ++n)
      if (kept[n]) Check(kept[copy.parent(n)] != 0);
    if (ReduceTree(copy, kept)) {
      CheckTree(copy);
      Check(copy.extra_columns().size() == 1 &&
            copy.extra_columns()[0].values.size() == copy.size());
      other = copy;
    }
  }
  MergeDuplicates(t);
  CheckTree(t);
  DiffUnion u = BuildDiffUnion(t, other);
  CheckTree(u.tree);
  Check(u.row_order.size() == u.tree.size() && u.left.size() == u.tree.size());
  Check(u.left[0] != kNoNode && u.right[0] != kNoNode);
}

}  // namespace proton::fuzz
