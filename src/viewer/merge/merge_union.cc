// See merge_union.h. The lookup key is built in one reused string, so mapping a file costs
// one hash lookup per node and no allocation for the nodes already in the union.
#include "viewer/merge/merge_union.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace proton::viewer {

void MergeUnion::SetKey(NodeId parent, std::string_view name, std::string_view type) {
  // The type's length goes before it: a separator byte could also occur inside a type or
  // name (JSON "\u0000"), and then ("a\0", "b") and ("a", "\0b") would share one key.
  const uint64_t type_size = type.size();
  key_.assign(reinterpret_cast<const char*>(&parent), sizeof parent);
  key_.append(reinterpret_cast<const char*>(&type_size), sizeof type_size);
  key_.append(type);
  key_.append(name);
}

void MergeUnion::Add(NodeId parent, std::string_view name, std::string_view type) {
  parent_.push_back(parent);
  name_off_.push_back(name_arena_.size());
  name_len_.push_back(static_cast<uint32_t>(name.size()));
  name_arena_.append(name);
  // Types are few ("function" in every Proton file): the previous node's almost always matches.
  size_t t = type_.empty() ? 0 : type_.back();
  if (t >= types_.size() || types_[t] != type) {
    t = 0;
    while (t < types_.size() && types_[t] != type) ++t;
    if (t == types_.size()) types_.emplace_back(type);
  }
  type_.push_back(static_cast<uint16_t>(t));
}

NodeId MergeUnion::Find(NodeId parent, std::string_view name, std::string_view type) {
  SetKey(parent, name, type);
  if (auto it = index_.find(std::string_view(key_)); it != index_.end()) return it->second;
  const auto id = static_cast<NodeId>(parent_.size());
  index_.emplace(key_, id);
  Add(parent, name, type);
  indexed_ = parent_.size();
  return id;
}

void MergeUnion::IndexRest() {
  index_.reserve(parent_.size());
  for (NodeId u = static_cast<NodeId>(indexed_); u < parent_.size(); ++u) {
    if (parent_[u] == kNoNode) continue;  // the root is matched by position, never looked up
    SetKey(parent_[u], name(u), type(u));
    index_.emplace(key_, u);
  }
  indexed_ = parent_.size();
}

std::vector<NodeId> MergeUnion::Adopt(const ProfileTree& tree) {
  std::vector<NodeId> union_id(tree.size());
  parent_.reserve(tree.size());
  name_off_.reserve(tree.size());
  name_len_.reserve(tree.size());
  type_.reserve(tree.size());
  name_arena_.reserve(tree.name_bytes());
  for (NodeId n = 0; n < tree.size(); ++n) {
    union_id[n] = n;
    Add(tree.parent(n), tree.name(n), tree.type(n));
  }
  return union_id;
}

std::vector<NodeId> MergeUnion::Map(const ProfileTree& tree) {
  if (tree.size() == 0) return {};
  if (parent_.empty()) return Adopt(tree);
  IndexRest();
  std::vector<NodeId> union_id(tree.size(), kNoNode);
  union_id[ProfileTree::root()] = 0;
  // Ids are pre-order, so every parent is mapped before its children.
  for (NodeId n = 1; n < tree.size(); ++n) {
    union_id[n] = Find(union_id[tree.parent(n)], tree.name(n), tree.type(n));
  }
  return union_id;
}

void MergeUnion::ChildLists(std::vector<uint32_t>& begin, std::vector<NodeId>& kids) const {
  // A child always has a larger union id than its parent and its earlier siblings, so one
  // counting pass lays the lists out in first-appearance order.
  begin.assign(size() + 1, 0);
  for (NodeId u = 1; u < size(); ++u) ++begin[parent_[u] + 1];
  for (size_t u = 0; u < size(); ++u) begin[u + 1] += begin[u];
  kids.resize(size());
  std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
  for (NodeId u = 1; u < size(); ++u) kids[fill[parent_[u]]++] = u;
}

ProfileTree MergeUnion::BuildTree(std::vector<NodeId>& tree_id) const {
  ProfileTree tree;
  tree_id.assign(size(), kNoNode);
  if (size() == 0) return tree;
  std::vector<uint32_t> begin;
  std::vector<NodeId> kids;
  ChildLists(begin, kids);
  std::vector<NodeId> stack{0};
  while (!stack.empty()) {
    const NodeId u = stack.back();
    stack.pop_back();
    const NodeId parent = parent_[u] == kNoNode ? kNoNode : tree_id[parent_[u]];
    tree_id[u] = tree.AddNode(parent, name(u), type(u));
    for (uint32_t k = begin[u + 1]; k-- > begin[u];) stack.push_back(kids[k]);
  }
  tree.BuildStructure();
  return tree;
}

std::vector<NodeId> MergeUnion::SortedPreOrder() const {
  std::vector<NodeId> order;
  if (size() == 0) return order;
  std::vector<uint32_t> begin;
  std::vector<NodeId> kids;
  ChildLists(begin, kids);
  const auto by_name = [&](NodeId a, NodeId b) {
    const int c = name(a).compare(name(b));  // bytewise, as the printer sorts (§3.7)
    return c != 0 ? c < 0 : type(a) < type(b);
  };
  for (size_t u = 0; u < size(); ++u) {
    std::stable_sort(kids.begin() + begin[u], kids.begin() + begin[u + 1], by_name);
  }
  order.reserve(size());
  std::vector<NodeId> stack{0};
  while (!stack.empty()) {
    const NodeId u = stack.back();
    stack.pop_back();
    order.push_back(u);
    for (uint32_t k = begin[u + 1]; k-- > begin[u];) stack.push_back(kids[k]);
  }
  return order;
}

}  // namespace proton::viewer
