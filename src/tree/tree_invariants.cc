// The tree invariant checks; see tree_invariants.h.
#include "tree/tree_invariants.h"

#if PROTON_DCHECK_IS_ON

#include <vector>

namespace proton::tree {

void DcheckPreOrder(const ProfileTree& tree) {
  const size_t n_nodes = tree.size();
  if (n_nodes == 0) return;
  PROTON_DCHECK(tree.parent(0) == kNoNode && tree.depth(0) == 0) << "node 0 is not the root";
  std::vector<NodeId> path{0};  // the previous node and its ancestors
  for (NodeId n = 1; n < n_nodes; ++n) {
    const NodeId parent = tree.parent(n);
    PROTON_DCHECK(parent < n) << "node " << n << " has parent " << parent;
    while (!path.empty() && path.back() != parent) path.pop_back();
    PROTON_DCHECK(!path.empty()) << "node " << n << ": its parent " << parent
                                 << " is not an ancestor of node " << n - 1
                                 << " (ids not in pre-order)";
    PROTON_DCHECK(tree.depth(n) == tree.depth(parent) + 1)
        << "node " << n << " has depth " << tree.depth(n) << " under depth " << tree.depth(parent);
    path.push_back(n);
  }
}

void DcheckChildLists(const ProfileTree& tree) {
  const size_t n_nodes = tree.size();
  size_t listed = 0;
  for (NodeId n = 0; n < n_nodes; ++n) {
    NodeId previous = n;
    for (NodeId child : tree.children(n)) {
      PROTON_DCHECK(tree.parent(child) == n) << "node " << child << " is listed under " << n
                                             << " but has parent " << tree.parent(child);
      PROTON_DCHECK(child > previous) << "children of node " << n << " not in file order";
      previous = child;
    }
    PROTON_DCHECK(tree.sorted_children(n).size() == tree.children(n).size())
        << "node " << n << ": sorted and file-order child lists differ in size";
    listed += tree.children(n).size();
  }
  PROTON_DCHECK(listed + 1 == n_nodes) << listed << " children listed for " << n_nodes << " nodes";
}

}  // namespace proton::tree

#endif  // PROTON_DCHECK_IS_ON
