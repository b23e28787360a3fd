// §3.3 frame removal and the finishing of a freshly read tree (metric table, inclusive sums).
#include <string>

#include "tree/profile_tree.h"
#include "tree/tree_regroup.h"

namespace proton::tree {

namespace {

constexpr std::string_view kLaunchMetadata = "__proton_launch_metadata";

bool IsLaunchMetadata(std::string_view name) {
  if (name.substr(0, kLaunchMetadata.size()) != kLaunchMetadata) return false;
  return name.size() == kLaunchMetadata.size() || name[kLaunchMetadata.size()] == ':';
}

}  // namespace

namespace {

Status NoProfileData(std::string_view display_name) {
  // Built with append: g++ 12 -O3 warns falsely (-Wrestrict) on "'" + std::string(...).
  std::string msg = "'";
  msg.append(display_name).append("' contains no profile data");
  return Status::Error(std::move(msg));
}

}  // namespace

bool IsNoProfileData(const Status& status, std::string_view display_name) {
  return !status.ok() && status.message() == NoProfileData(display_name).message();
}

Status PrepareProfile(ProfileTree& tree, std::string_view display_name) {
  const size_t n_nodes = tree.size();
  auto no_data = [&] { return NoProfileData(display_name); };
  if (n_nodes == 0) return no_data();
  // Rule 1, top-down: a launch-metadata frame and everything below it.
  std::vector<uint8_t> keep(n_nodes, 1);
  for (NodeId n = 0; n < n_nodes; ++n) {
    const NodeId p = tree.parent(n);
    if ((p != kNoNode && keep[p] == 0) || IsLaunchMetadata(tree.name(n))) keep[n] = 0;
  }
  // Rule 2, bottom-up (children have larger ids): no metrics and no surviving children.
  std::vector<uint8_t> has_kept_child(n_nodes, 0);
  bool all_kept = true;
  for (size_t i = n_nodes; i-- > 0;) {
    const NodeId n = static_cast<NodeId>(i);
    if (keep[n] && !tree.has_metrics(n) && !has_kept_child[n]) keep[n] = 0;
    if (keep[n]) {
      if (n != 0) has_kept_child[tree.parent(n)] = 1;
    } else {
      all_kept = false;
    }
  }
  if (!keep[0]) return no_data();
  if (!all_kept) {
    tree.BuildStructure(/*sort_children=*/false);  // sizes the lazily grown columns
    tree.Compact(keep);
  }
  tree.Finalize();
  return Status();
}

}  // namespace proton::tree
