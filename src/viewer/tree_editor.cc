// TreeEditor: regrouping (reduction + duplicate merging, §3.7, §5.4) and rebuilding a tree
// from groups of old nodes. Iterative: an explicit stack whose pending member lists live in
// one arena used as a stack too, so memory is O(n) and nothing recurses on depth.
#include "viewer/tree_editor.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "viewer/tree_invariants.h"

namespace proton::viewer {

namespace {

inline double NanAdd(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return a + b;
}

inline bool SameKey(const ProfileTree& t, NodeId a, NodeId b) {
  return t.name(a) == t.name(b) && t.type(a) == t.type(b);
}

inline bool KeyLess(const ProfileTree& t, NodeId a, NodeId b) {
  const int c = t.name(a).compare(t.name(b));
  if (c != 0) return c < 0;
  return t.type(a) < t.type(b);
}

}  // namespace

bool TreeEditor::HasDuplicates(const ProfileTree& tree) {
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
    grouping_.members.insert(grouping_.members.end(),
                             arena_.begin() + static_cast<ptrdiff_t>(pending.begin),
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
    for (size_t index = 0; index < order_.size(); ++index) order_[index] = static_cast<NodeId>(index);
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

Grouping TreeEditor::Regroup(const ProfileTree& old, const std::vector<uint8_t>& keep,
                             bool merge) {
  return RegroupWalk(old, keep, merge).Run();
}

ProfileTree TreeEditor::Rebuild(const ProfileTree& old, const Grouping& g) {
  ProfileTree t;
  const size_t n_new = g.parent.size();
  t.Reserve(n_new, old.names_.size());
  std::vector<NodeId> old2new(old.size(), kNoNode);
  for (size_t i = 0; i < n_new; ++i) {
    const NodeId rep = g.members[g.begin[i]];
    const NodeId id = t.AddNode(g.parent[i], old.name(rep), old.type(rep));
    bool has = false;
    for (uint64_t k = g.begin[i]; k < g.begin[i + 1]; ++k) {
      old2new[g.members[k]] = id;
      has = has || old.has_metrics_[g.members[k]] != 0;
    }
    t.has_metrics_[id] = has ? 1 : 0;
  }

  t.columns_.resize(old.columns_.size());
  for (size_t ci = 0; ci < old.columns_.size(); ++ci) {
    const RawColumn& oc = old.columns_[ci];
    RawColumn& nc = t.columns_[ci];
    nc.key = oc.key;
    nc.inclusive = oc.inclusive;
    nc.kind = oc.kind;
    nc.strings = oc.strings;
    nc.first_node = oc.first_node < old2new.size() ? old2new[oc.first_node] : kNoNode;
    nc.first_pos = oc.first_pos;
    nc.type.assign(n_new, ValueType::kAbsent);
    nc.own.assign(n_new, kMissing);
    if (!oc.own_int.empty()) nc.own_int.assign(n_new, 0);
    if (!oc.own_str.empty()) nc.own_str.assign(n_new, kNoString);
    const bool numeric = oc.numeric();
    for (size_t i = 0; i < n_new; ++i) {
      const NodeId rep = g.members[g.begin[i]];
      const bool single = g.begin[i + 1] - g.begin[i] == 1;
      if (single || !numeric) {
        // One member, or a non-numeric column: the first member's cell as is.
        nc.type[i] = oc.type[rep];
        nc.own[i] = oc.own[rep];
        if (!oc.own_int.empty()) nc.own_int[i] = oc.own_int[rep];
        if (!oc.own_str.empty()) nc.own_str[i] = oc.own_str[rep];
        continue;
      }
      // Numeric column, several members: sum present values, skipping NaN (§3.7); exact in
      // int64 while every present value is an integer.
      bool any = false, all_int = true;
      uint64_t isum = 0;
      double dsum = kMissing;
      for (uint64_t k = g.begin[i]; k < g.begin[i + 1]; ++k) {
        const NodeId m = g.members[k];
        const ValueType vt = oc.type[m];
        if (vt != ValueType::kInt && vt != ValueType::kDouble) continue;
        any = true;
        if (vt == ValueType::kInt) isum += static_cast<uint64_t>(oc.int_value(m));
        else all_int = false;
        dsum = NanAdd(dsum, oc.own[m]);
      }
      if (!any) {
        nc.type[i] = oc.type[rep];
      } else if (all_int) {
        nc.type[i] = ValueType::kInt;
        nc.own[i] = static_cast<double>(static_cast<int64_t>(isum));
        if (!nc.own_int.empty()) nc.own_int[i] = static_cast<int64_t>(isum);
      } else {
        nc.type[i] = ValueType::kDouble;
        nc.own[i] = dsum;
      }
    }
  }
  t.num_inclusive_ = old.num_inclusive_;
  t.column_index_ = old.column_index_;

  t.extra_.resize(old.extra_.size());
  for (size_t ei = 0; ei < old.extra_.size(); ++ei) {
    const ExtraColumn& oe = old.extra_[ei];
    ExtraColumn& ne = t.extra_[ei];
    ne.label = oe.label;
    ne.values.assign(n_new, kMissing);
    for (size_t i = 0; i < n_new; ++i) {
      double acc = oe.values[g.members[g.begin[i]]];
      for (uint64_t k = g.begin[i] + 1; k < g.begin[i + 1]; ++k)
        acc = NanAdd(acc, oe.values[g.members[k]]);
      ne.values[i] = acc;
    }
  }
  t.devices_ = old.devices_;
  DcheckPreOrder(t);
  return t;
}

namespace {

template <typename T>
void CompactVector(std::vector<T>& v, const std::vector<NodeId>& kept_ids) {
  if (v.empty()) return;
  for (size_t i = 0; i < kept_ids.size(); ++i) v[i] = v[kept_ids[i]];
  v.resize(kept_ids.size());
}

}  // namespace

void TreeEditor::Compact(ProfileTree& t, const std::vector<uint8_t>& keep) {
  const size_t n_old = t.size();
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
    const NodeId p = t.parent_[kept_ids[i]];
    t.parent_[i] = p == kNoNode ? kNoNode : old2new[p];
  }
  t.parent_.resize(kept_ids.size());
  CompactVector(t.depth_, kept_ids);
  CompactVector(t.name_off_, kept_ids);
  CompactVector(t.name_len_, kept_ids);
  CompactVector(t.type_, kept_ids);
  CompactVector(t.has_metrics_, kept_ids);
  for (RawColumn& c : t.columns_) {
    CompactVector(c.type, kept_ids);
    CompactVector(c.own, kept_ids);
    CompactVector(c.own_int, kept_ids);
    CompactVector(c.own_str, kept_ids);
    CompactVector(c.inc, kept_ids);
    c.first_node = c.first_node < n_old ? old2new[c.first_node] : kNoNode;
  }
  for (ExtraColumn& e : t.extra_) CompactVector(e.values, kept_ids);
  DcheckPreOrder(t);
}

}  // namespace proton::viewer
