// Regrouping (reduction + duplicate merging, §3.7, §5.4) and ProfileTree's editing members:
// rebuilding a tree from groups of old nodes, compacting one in place. Iterative: an explicit stack
// whose pending member lists live in one arena used as a stack too, so memory is O(n) and nothing
// recurses on depth.
#include "tree/tree_regroup.h"

#include <algorithm>
#include <utility>

#include "tree/nan_add.h"
#include "tree/tree_invariants.h"

namespace proton::tree {

namespace {

inline bool SameKey(const ProfileTree& tree, NodeId left, NodeId right) {
  return tree.name(left) == tree.name(right) && tree.type(left) == tree.type(right);
}

inline bool KeyLess(const ProfileTree& tree, NodeId left, NodeId right) {
  const int order = tree.name(left).compare(tree.name(right));
  if (order != 0) return order < 0;
  return tree.type(left) < tree.type(right);
}

}  // namespace

bool HasDuplicates(const ProfileTree& tree) {
  for (NodeId n = 0; n < tree.size(); ++n) {
    auto kids = tree.sorted_children(n);
    for (size_t i = 1; i < kids.size(); ++i)
      if (SameKey(tree, kids[i - 1], kids[i])) return true;
  }
  return false;
}

namespace {

// The top-down walk behind Regroup. Pending groups wait on an explicit stack; their member
// lists live in one arena used as a stack too, so memory is O(n) and nothing recurses.
class RegroupWalk {
 public:
  RegroupWalk(const ProfileTree& old, const std::vector<uint8_t>& keep, bool merge)
      : old_(old), keep_(keep), merge_(merge) {}

  Grouping Run() {
    grouping_.begin.push_back(0);
    if (old_.size() == 0) return std::move(grouping_);
    stack_.push_back({kNoNode, 0, 1});
    arena_.push_back(ProfileTree::root());
    while (!stack_.empty()) {
      const Pending pending = stack_.back();
      stack_.pop_back();
      const NodeId group = static_cast<NodeId>(grouping_.parent.size());
      const uint64_t members_begin = EmitGroup(pending);
      CollectCandidates(members_begin);
      if (candidates_.empty()) continue;
      if (MayHaveDuplicates(pending, members_begin)) {
        PushMergedRuns(group);
      } else {
        PushSingles(group);
      }
    }
    return std::move(grouping_);
  }

 private:
  struct Pending {
    NodeId new_parent;
    uint64_t begin;  // into arena_; a pending entry's members are always the arena's tail
    uint32_t length;
  };
  struct KeyRun {
    uint32_t leader;  // first index in candidates_
    uint32_t start;   // [start, start + length) of order_
    uint32_t length;
  };

  bool Kept(NodeId node) const { return keep_.empty() || keep_[node] != 0; }

  // Appends the pending group to the grouping and pops its members off the arena; returns
  // where its members start in grouping_.members.
  uint64_t EmitGroup(const Pending& pending) {
    grouping_.parent.push_back(pending.new_parent);
    const uint64_t members_begin = grouping_.members.size();
    grouping_.members.insert(
        grouping_.members.end(), arena_.begin() + static_cast<ptrdiff_t>(pending.begin),
        arena_.begin() + static_cast<ptrdiff_t>(pending.begin + pending.length));
    grouping_.begin.push_back(grouping_.members.size());
    arena_.resize(pending.begin);
    return members_begin;
  }

  void CollectCandidates(uint64_t members_begin) {
    candidates_.clear();
    for (uint64_t index = members_begin; index < grouping_.members.size(); ++index)
      for (NodeId child : old_.children(grouping_.members[index]))
        if (Kept(child)) candidates_.push_back(child);
  }

  // False when merging cannot change anything, so the candidates become groups of one.
  bool MayHaveDuplicates(const Pending& pending, uint64_t members_begin) const {
    if (!merge_ || candidates_.size() < 2) return false;
    if (pending.length != 1) return true;  // decided by sorting
    // One member: its sorted children tell cheaply whether kept duplicates exist.
    NodeId previous = kNoNode;
    for (NodeId child : old_.sorted_children(grouping_.members[members_begin])) {
      if (!Kept(child)) continue;
      if (previous != kNoNode && SameKey(old_, previous, child)) return true;
      previous = child;
    }
    return false;
  }

  // Pushed in reverse so that they pop in sibling order.
  void PushSingles(NodeId group) {
    for (size_t index = candidates_.size(); index-- > 0;) {
      stack_.push_back({group, arena_.size(), 1});
      arena_.push_back(candidates_[index]);
    }
  }

  // Stable sort of candidate indices by key; equal runs are groups, led by their first
  // (smallest) index; groups are emitted in the order of their leaders.
  void PushMergedRuns(NodeId group) {
    order_.resize(candidates_.size());
    for (size_t index = 0; index < order_.size(); ++index)
      order_[index] = static_cast<NodeId>(index);
    std::stable_sort(order_.begin(), order_.end(), [&](NodeId left, NodeId right) {
      return KeyLess(old_, candidates_[left], candidates_[right]);
    });
    runs_.clear();
    for (uint32_t run_start = 0; run_start < order_.size();) {
      uint32_t run_end = run_start + 1;
      while (run_end < order_.size() &&
             SameKey(old_, candidates_[order_[run_start]], candidates_[order_[run_end]]))
        ++run_end;
      runs_.push_back({order_[run_start], run_start, run_end - run_start});
      run_start = run_end;
    }
    std::sort(runs_.begin(), runs_.end(),
              [](const KeyRun& left, const KeyRun& right) { return left.leader < right.leader; });
    for (size_t run = runs_.size(); run-- > 0;) {
      stack_.push_back({group, arena_.size(), runs_[run].length});
      for (uint32_t offset = 0; offset < runs_[run].length; ++offset)
        arena_.push_back(candidates_[order_[runs_[run].start + offset]]);
    }
  }

  const ProfileTree& old_;
  const std::vector<uint8_t>& keep_;
  const bool merge_;
  Grouping grouping_;
  std::vector<Pending> stack_;
  std::vector<NodeId> arena_;
  std::vector<NodeId> candidates_;  // kept children of the current group's members
  std::vector<NodeId> order_;       // candidate indices sorted by key
  std::vector<KeyRun> runs_;
};

}  // namespace

Grouping Regroup(const ProfileTree& old, const std::vector<uint8_t>& keep, bool merge) {
  return RegroupWalk(old, keep, merge).Run();
}

namespace {

// New node `group`'s cell of a numeric column with several members: present values summed
// skipping NaN (§3.7); exact in int64 while every present value is an integer.
void MergeNumericCell(const RawColumn& old_column, const Grouping& grouping, size_t group,
                      RawColumn& column) {
  bool any_present = false;
  bool all_integers = true;
  uint64_t integer_sum = 0;
  double double_sum = kMissing;
  for (uint64_t index = grouping.begin[group]; index < grouping.begin[group + 1]; ++index) {
    const NodeId member = grouping.members[index];
    const ValueType value_type = old_column.type[member];
    if (value_type != ValueType::kInt && value_type != ValueType::kDouble) continue;
    any_present = true;
    if (value_type == ValueType::kInt)
      integer_sum += static_cast<uint64_t>(old_column.int_value(member));
    else
      all_integers = false;
    double_sum = NanAdd(double_sum, old_column.own[member]);
  }
  if (!any_present) {
    column.type[group] = old_column.type[grouping.members[grouping.begin[group]]];
  } else if (all_integers) {
    column.type[group] = ValueType::kInt;
    column.own[group] = static_cast<double>(static_cast<int64_t>(integer_sum));
    if (!column.own_int.empty()) column.own_int[group] = static_cast<int64_t>(integer_sum);
  } else {
    column.type[group] = ValueType::kDouble;
    column.own[group] = double_sum;
  }
}

// One member, or a non-numeric column: the first member's cell as is.
void CopyRepresentativeCell(const RawColumn& old_column, NodeId representative, size_t group,
                            RawColumn& column) {
  column.type[group] = old_column.type[representative];
  column.own[group] = old_column.own[representative];
  if (!old_column.own_int.empty()) column.own_int[group] = old_column.own_int[representative];
  if (!old_column.own_str.empty()) column.own_str[group] = old_column.own_str[representative];
}

void RebuildColumn(const RawColumn& old_column, const Grouping& grouping,
                   const std::vector<NodeId>& old_to_new, RawColumn& column) {
  const size_t group_count = grouping.parent.size();
  column.key = old_column.key;
  column.inclusive = old_column.inclusive;
  column.kind = old_column.kind;
  column.strings = old_column.strings;
  column.first_node =
      old_column.first_node < old_to_new.size() ? old_to_new[old_column.first_node] : kNoNode;
  column.first_pos = old_column.first_pos;
  column.type.assign(group_count, ValueType::kAbsent);
  column.own.assign(group_count, kMissing);
  if (!old_column.own_int.empty()) column.own_int.assign(group_count, 0);
  if (!old_column.own_str.empty()) column.own_str.assign(group_count, kNoString);
  const bool numeric = old_column.numeric();
  for (size_t group = 0; group < group_count; ++group) {
    const bool single = grouping.begin[group + 1] - grouping.begin[group] == 1;
    if (single || !numeric) {
      CopyRepresentativeCell(old_column, grouping.members[grouping.begin[group]], group, column);
    } else {
      MergeNumericCell(old_column, grouping, group, column);
    }
  }
}

// Extra columns are summed over the members, skipping NaN (§3.7).
void RebuildExtraColumn(const ExtraColumn& old_extra, const Grouping& grouping,
                        ExtraColumn& extra) {
  const size_t group_count = grouping.parent.size();
  extra.label = old_extra.label;
  extra.values.assign(group_count, kMissing);
  for (size_t group = 0; group < group_count; ++group) {
    double sum = old_extra.values[grouping.members[grouping.begin[group]]];
    for (uint64_t index = grouping.begin[group] + 1; index < grouping.begin[group + 1]; ++index)
      sum = NanAdd(sum, old_extra.values[grouping.members[index]]);
    extra.values[group] = sum;
  }
}

}  // namespace

std::vector<NodeId> ProfileTree::AddGroupNodes(const ProfileTree& old, const Grouping& grouping) {
  std::vector<NodeId> old_to_new(old.size(), kNoNode);
  for (size_t group = 0; group < grouping.parent.size(); ++group) {
    const NodeId representative = grouping.members[grouping.begin[group]];
    const NodeId id =
        AddNode(grouping.parent[group], old.name(representative), old.type(representative));
    bool has_metrics = false;
    for (uint64_t index = grouping.begin[group]; index < grouping.begin[group + 1]; ++index) {
      old_to_new[grouping.members[index]] = id;
      has_metrics = has_metrics || old.has_metrics_[grouping.members[index]] != 0;
    }
    has_metrics_[id] = has_metrics ? 1 : 0;
  }
  return old_to_new;
}

ProfileTree ProfileTree::Regrouped(const Grouping& grouping) const {
  ProfileTree tree;
  tree.Reserve(grouping.parent.size(), names_.size());
  const std::vector<NodeId> old_to_new = tree.AddGroupNodes(*this, grouping);
  tree.columns_.resize(columns_.size());
  for (size_t column = 0; column < columns_.size(); ++column)
    RebuildColumn(columns_[column], grouping, old_to_new, tree.columns_[column]);
  tree.num_inclusive_ = num_inclusive_;
  tree.column_index_ = column_index_;
  tree.extra_.resize(extra_.size());
  for (size_t extra = 0; extra < extra_.size(); ++extra)
    RebuildExtraColumn(extra_[extra], grouping, tree.extra_[extra]);
  tree.devices_ = devices_;
  DcheckPreOrder(tree);
  return tree;
}

namespace {

template <typename T>
void CompactVector(std::vector<T>& v, const std::vector<NodeId>& kept_ids) {
  if (v.empty()) return;
  for (size_t i = 0; i < kept_ids.size(); ++i) v[i] = v[kept_ids[i]];
  v.resize(kept_ids.size());
}

}  // namespace

void ProfileTree::Compact(const std::vector<uint8_t>& keep) {
  const size_t n_old = size();
  std::vector<NodeId> old2new(n_old, kNoNode);
  std::vector<NodeId> kept_ids;
  kept_ids.reserve(n_old);
  for (NodeId n = 0; n < n_old; ++n)
    if (keep[n]) {
      old2new[n] = static_cast<NodeId>(kept_ids.size());
      kept_ids.push_back(n);
    }
  // kept_ids[i] >= i, so forward copies never overwrite a value still to be read.
  for (size_t i = 0; i < kept_ids.size(); ++i) {
    const NodeId p = parent_[kept_ids[i]];
    parent_[i] = p == kNoNode ? kNoNode : old2new[p];
  }
  parent_.resize(kept_ids.size());
  CompactVector(depth_, kept_ids);
  CompactVector(name_off_, kept_ids);
  CompactVector(name_len_, kept_ids);
  CompactVector(type_, kept_ids);
  CompactVector(has_metrics_, kept_ids);
  for (RawColumn& c : columns_) {
    CompactVector(c.type, kept_ids);
    CompactVector(c.own, kept_ids);
    CompactVector(c.own_int, kept_ids);
    CompactVector(c.own_str, kept_ids);
    CompactVector(c.inc, kept_ids);
    c.first_node = c.first_node < n_old ? old2new[c.first_node] : kNoNode;
  }
  for (ExtraColumn& e : extra_) CompactVector(e.values, kept_ids);
  DcheckPreOrder(*this);
}

}  // namespace proton::tree
