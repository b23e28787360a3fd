// TreeEditor: regrouping (reduction + duplicate merging, §3.7, §5.4) and rebuilding a tree
// from groups of old nodes. Iterative: an explicit stack whose pending member lists live in
// one arena used as a stack too, so memory is O(n) and nothing recurses on depth.
#include "viewer/tree_editor.h"

#include <algorithm>
#include <cmath>

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

Grouping TreeEditor::Regroup(const ProfileTree& old, const std::vector<uint8_t>& keep,
                             bool merge) {
  Grouping g;
  g.begin.push_back(0);
  if (old.size() == 0) return g;
  auto kept = [&](NodeId n) { return keep.empty() || keep[n] != 0; };

  struct Pending {
    NodeId new_parent;
    uint64_t begin;  // into arena; a pending entry's members are always the arena's tail
    uint32_t len;
  };
  std::vector<Pending> stack{{kNoNode, 0, 1}};
  std::vector<NodeId> arena{ProfileTree::root()};
  std::vector<NodeId> cands, order;
  struct Run {
    uint32_t leader, start, len;  // leader = first index in cands; [start, start+len) of order
  };
  std::vector<Run> runs;

  while (!stack.empty()) {
    const Pending p = stack.back();
    stack.pop_back();
    const NodeId id = static_cast<NodeId>(g.parent.size());
    g.parent.push_back(p.new_parent);
    const uint64_t mbegin = g.members.size();
    g.members.insert(g.members.end(), arena.begin() + static_cast<ptrdiff_t>(p.begin),
                     arena.begin() + static_cast<ptrdiff_t>(p.begin + p.len));
    g.begin.push_back(g.members.size());
    arena.resize(p.begin);

    cands.clear();
    for (uint64_t i = mbegin; i < g.members.size(); ++i)
      for (NodeId c : old.children(g.members[i]))
        if (kept(c)) cands.push_back(c);
    if (cands.empty()) continue;

    bool dups = false;
    if (merge && cands.size() >= 2) {
      if (p.len == 1) {
        // One member: its sorted children tell cheaply whether kept duplicates exist.
        NodeId prev = kNoNode;
        for (NodeId c : old.sorted_children(g.members[mbegin])) {
          if (!kept(c)) continue;
          if (prev != kNoNode && SameKey(old, prev, c)) {
            dups = true;
            break;
          }
          prev = c;
        }
      } else {
        dups = true;  // decided below by sorting
      }
    }
    if (!dups) {
      for (size_t i = cands.size(); i-- > 0;) {
        stack.push_back({id, arena.size(), 1});
        arena.push_back(cands[i]);
      }
      continue;
    }
    // Stable sort of candidate indices by key; equal runs are groups, led by their first
    // (smallest) index; groups are emitted in the order of their leaders.
    order.resize(cands.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<NodeId>(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](NodeId a, NodeId b) { return KeyLess(old, cands[a], cands[b]); });
    runs.clear();
    for (uint32_t s = 0; s < order.size();) {
      uint32_t e = s + 1;
      while (e < order.size() && SameKey(old, cands[order[s]], cands[order[e]])) ++e;
      runs.push_back({order[s], s, e - s});
      s = e;
    }
    std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.leader < b.leader; });
    for (size_t r = runs.size(); r-- > 0;) {
      stack.push_back({id, arena.size(), runs[r].len});
      for (uint32_t k = 0; k < runs[r].len; ++k) arena.push_back(cands[order[runs[r].start + k]]);
    }
  }
  return g;
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
