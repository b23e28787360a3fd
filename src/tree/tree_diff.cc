// The diff union tree (§6): roots matched with each other, every other node by its
// (name, type) path; children of matched nodes merged from the two sorted child lists
// (linear, §12). Union ids are pre-order in sorted order, which gives the row order.
#include <algorithm>

#include "tree/profile_tree.h"
#include "tree/tree_invariants.h"

namespace proton::tree {

namespace {

// <0, 0, >0 like memcmp on (name, type).
int CompareKey(const ProfileTree& a, NodeId x, const ProfileTree& b, NodeId y) {
  const int c = a.name(x).compare(b.name(y));
  if (c != 0) return c;
  return a.type(x).compare(b.type(y));
}

}  // namespace

DiffUnion BuildDiffUnion(const ProfileTree& left, const ProfileTree& right) {
  DiffUnion u;
  if (left.size() == 0 && right.size() == 0) return u;
  struct Pending {
    NodeId parent, l, r;
  };
  std::vector<Pending> stack{{kNoNode, left.size() ? ProfileTree::root() : kNoNode,
                              right.size() ? ProfileTree::root() : kNoNode}};
  std::vector<Pending> kids;
  // The union has at most both trees' nodes and names: reserving them up front avoids the
  // regrowth copies of the name arena and node arrays (untouched reservation costs address
  // space only, and large reservations get huge pages, so far fewer page faults).
  const size_t most = left.size() + right.size();
  u.tree.Reserve(most, left.name_bytes() + right.name_bytes());
  u.left.reserve(most);
  u.right.reserve(most);
  while (!stack.empty()) {
    const Pending p = stack.back();
    stack.pop_back();
    const bool has_l = p.l != kNoNode;
    const NodeId id = has_l ? u.tree.AddNode(p.parent, left.name(p.l), left.type(p.l))
                            : u.tree.AddNode(p.parent, right.name(p.r), right.type(p.r));
    u.left.push_back(p.l);
    u.right.push_back(p.r);
    if (p.l == kNoNode || p.r == kNoNode) u.sides_differ = true;
    // Merge the two sorted child lists (inputs have no duplicate siblings).
    kids.clear();
    std::span<const NodeId> lk, rk;
    if (has_l) lk = left.sorted_children(p.l);
    if (p.r != kNoNode) rk = right.sorted_children(p.r);
    size_t i = 0, j = 0;
    while (i < lk.size() || j < rk.size()) {
      int c = i == lk.size() ? 1 : j == rk.size() ? -1 : CompareKey(left, lk[i], right, rk[j]);
      if (c < 0)
        kids.push_back({id, lk[i++], kNoNode});
      else if (c > 0)
        kids.push_back({id, kNoNode, rk[j++]});
      else
        kids.push_back({id, lk[i++], rk[j++]});
    }
    for (size_t k = kids.size(); k-- > 0;) stack.push_back(kids[k]);
  }
  u.tree.BuildStructure();  // already in sorted order: the check is linear
  DcheckPreOrder(u.tree);
#if PROTON_DCHECK_IS_ON
  for (NodeId n = 0; n < u.tree.size(); ++n) {
    const auto file_order = u.tree.children(n);
    const auto sorted = u.tree.sorted_children(n);
    PROTON_DCHECK(std::equal(file_order.begin(), file_order.end(), sorted.begin()))
        << "diff union node " << n << ": children not built in sorted order";
  }
#endif
  u.row_order.reserve(u.left.size());
  for (NodeId n = 0; n < u.left.size(); ++n)
    if (u.left[n] != kNoNode) u.row_order.push_back(n);
  for (NodeId n = 0; n < u.left.size(); ++n)
    if (u.left[n] == kNoNode) u.row_order.push_back(n);
  return u;
}

}  // namespace proton::tree
