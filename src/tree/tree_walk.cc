// Pre-order walks in sorted child order (print order and non-diff row order, §7.7), with an
// explicit stack so that 100,000-level trees work.
#include "tree/profile_tree.h"

namespace proton::tree {

void ForEachSortedPreOrder(const ProfileTree& tree, const std::function<bool(NodeId)>& visit) {
  if (tree.size() == 0) return;
  std::vector<NodeId> stack{ProfileTree::root()};
  while (!stack.empty()) {
    const NodeId n = stack.back();
    stack.pop_back();
    if (!visit(n)) continue;
    auto kids = tree.sorted_children(n);
    for (size_t i = kids.size(); i-- > 0;) stack.push_back(kids[i]);
  }
}

std::vector<NodeId> SortedPreOrder(const ProfileTree& tree) {
  std::vector<NodeId> order;
  order.reserve(tree.size());
  ForEachSortedPreOrder(tree, [&](NodeId n) {
    order.push_back(n);
    return true;
  });
  return order;
}

}  // namespace proton::tree
