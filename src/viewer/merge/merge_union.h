// The union tree of --merge (viewer.md §11.11): files are mapped into it one after another,
// each node by its (name, type) path from the root, so that memory follows the union and
// not the sum of the files. Union ids are given in order of first appearance; BuildTree
// renumbers them into the pre-order a ProfileTree needs.
#pragma once

#include <string>
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
  // itself (--follow's live view).
  NodeId parent(NodeId u) const { return parent_[u]; }
  std::string_view name(NodeId u) const { return names_[u]; }

  // The union as a ProfileTree without metric columns, in pre-order with children in order
  // of first appearance (sorted children for printing, as always). `tree_id` gets, per union
  // id, the node's id in the returned tree.
  ProfileTree BuildTree(std::vector<NodeId>& tree_id) const;

 private:
  NodeId Find(NodeId parent, std::string_view name, std::string_view type);

  std::vector<NodeId> parent_;
  std::vector<std::string> names_;
  std::vector<std::string> types_;
  // parent id (4 bytes), type, '\0', name -> union id
  StringIdMap index_;
  std::string key_;  // scratch for lookups
};

}  // namespace proton::viewer
