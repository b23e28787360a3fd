// The union tree of --merge (viewer.md §11.11): files are mapped into it one after another,
// each node by its (name, type) path from the root, so that memory follows the union and
// not the sum of the files. Union ids are given in order of first appearance (the first
// file's nodes keep their own ids); BuildTree renumbers them into the pre-order a ProfileTree
// needs. The lookup index is built only once a second file is mapped, so that one file (the
// common case of a database export, §11.13) costs no hashing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "viewer/common/tree_names.h"

namespace proton::viewer {

class MergeUnion {
 public:
  // Maps every node of `tree` (which must have no duplicate siblings, i.e. have been through
  // MergeDuplicates) to its union node, adding the nodes not yet seen. Returns the union id
  // of each node of `tree`. The roots are matched with each other; the union root keeps the
  // first file's root name.
  std::vector<NodeId> Map(const ProfileTree& tree);

  size_t size() const { return parent_.size(); }
  // A union node's parent (kNoNode for the root) and name, for reports that walk the union
  // itself (--follow's live view, the SQLite database).
  NodeId parent(NodeId u) const { return parent_[u]; }
  std::string_view name(NodeId u) const {
    return std::string_view(name_arena_).substr(name_off_[u], name_len_[u]);
  }
  std::string_view type(NodeId u) const { return types_[type_[u]]; }

  // Union ids in print order (viewer.md §7.3): pre-order, children sorted by (name, type)
  // bytewise, as BuildTree's sorted children would give them, without building the tree.
  std::vector<NodeId> SortedPreOrder() const;

  // The union as a ProfileTree without metric columns, in pre-order with children in order
  // of first appearance (sorted children for printing, as always). `tree_id` gets, per union
  // id, the node's id in the returned tree.
  ProfileTree BuildTree(std::vector<NodeId>& tree_id) const;

 private:
  NodeId Find(NodeId parent, std::string_view name, std::string_view type);
  // The first file: every node is new, in pre-order, so its union id is its own id.
  std::vector<NodeId> Adopt(const ProfileTree& tree);
  // Puts the nodes not yet in index_ into it.
  void IndexRest();
  void SetKey(NodeId parent, std::string_view name, std::string_view type);
  void Add(NodeId parent, std::string_view name, std::string_view type);
  // Per union id, the ids of its children in first-appearance order: children of u are
  // kids[begin[u] .. begin[u + 1]).
  void ChildLists(std::vector<uint32_t>& begin, std::vector<NodeId>& kids) const;

  // Names in one arena (no allocation per frame), types interned (there are few).
  std::vector<NodeId> parent_;
  std::string name_arena_;
  std::vector<uint64_t> name_off_;
  std::vector<uint32_t> name_len_;
  std::vector<uint16_t> type_;
  std::vector<std::string> types_;
  // parent id (4 bytes), type, '\0', name -> union id
  StringIdMap index_;
  std::string key_;     // scratch for lookups
  size_t indexed_ = 0;  // union ids [0, indexed_) are in index_
};

}  // namespace proton::viewer
