// See merge_sum.h.
#include "viewer/merge/merge_sum.h"

#include <algorithm>

namespace proton::viewer {
namespace {

bool Unset(ValueType t) { return t == ValueType::kAbsent || t == ValueType::kNull; }

int64_t WrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

}  // namespace

MergeSum::Column& MergeSum::ColumnFor(const RawColumn& raw) {
  auto it = column_index_.find(std::string_view(raw.key));
  if (it == column_index_.end()) {
    it = column_index_.emplace(raw.key, static_cast<uint32_t>(columns_.size())).first;
    columns_.emplace_back().key = raw.key;
  }
  Column& column = columns_[it->second];
  column.inclusive = column.inclusive || raw.inclusive;
  return column;
}

void MergeSum::AddValue(Column& c, NodeId u, const RawColumn& raw, NodeId n) {
  const ValueType t = raw.type[n];
  ValueType& now = c.type[u];
  switch (t) {
    case ValueType::kAbsent: return;
    case ValueType::kNull:
      if (now == ValueType::kAbsent) now = ValueType::kNull;
      return;
    case ValueType::kInt:
      if (Unset(now))
        c.ints[u] = raw.int_value(n);
      else if (now == ValueType::kInt)
        c.ints[u] = WrappingAdd(c.ints[u], raw.int_value(n));
      else if (now == ValueType::kDouble)
        c.doubles[u] += raw.own[n];
      if (Unset(now)) now = ValueType::kInt;
      return;
    case ValueType::kDouble:
      if (Unset(now))
        c.doubles[u] = raw.own[n];
      else if (now == ValueType::kInt)
        c.doubles[u] = static_cast<double>(c.ints[u]) + raw.own[n];
      else if (now == ValueType::kDouble)
        c.doubles[u] += raw.own[n];
      if (Unset(now) || now == ValueType::kInt) now = ValueType::kDouble;
      return;
    case ValueType::kString: {
      if (!Unset(now)) return;
      const std::string_view s = raw.str(n);
      auto it = c.string_ids.find(s);
      if (it == c.string_ids.end()) {
        it = c.string_ids.emplace(std::string(s), static_cast<uint32_t>(c.strings.size())).first;
        c.strings.emplace_back(s);
      }
      c.string_id[u] = it->second;
      now = ValueType::kString;
      return;
    }
    default:
      if (Unset(now)) now = t;
      return;
  }
}

void MergeSum::Add(const ProfileTree& tree, const std::vector<NodeId>& union_id,
                   size_t union_size) {
  for (const RawColumn& raw : tree.columns()) {
    Column& c = ColumnFor(raw);
    c.type.resize(union_size, ValueType::kAbsent);
    c.ints.resize(union_size, 0);
    c.doubles.resize(union_size, 0.0);
    c.string_id.resize(union_size, kNoString);
    for (NodeId n = 0; n < tree.size(); ++n) AddValue(c, union_id[n], raw, n);
  }
}

void MergeSum::SetValue(ProfileTree& tree, NodeId n, const Column& c, NodeId u) {
  if (u >= c.type.size()) return;  // the column appeared only after this node's last file
  switch (c.type[u]) {
    case ValueType::kAbsent: return;
    case ValueType::kNull: tree.SetNull(n, c.key); return;
    case ValueType::kInt: tree.SetInt(n, c.key, c.ints[u]); return;
    case ValueType::kDouble: tree.SetDouble(n, c.key, c.doubles[u]); return;
    case ValueType::kString: tree.SetString(n, c.key, c.strings[c.string_id[u]]); return;
    default: tree.SetOther(n, c.key, c.type[u]); return;
  }
}

Result<ProfileTree> MergeSum::Build(const MergeUnion& merged, const DeviceTable& devices,
                                    std::string_view display_name) const {
  std::vector<NodeId> tree_id;
  ProfileTree tree = merged.BuildTree(tree_id);
  std::vector<NodeId> union_of(tree.size());
  for (NodeId u = 0; u < tree_id.size(); ++u) union_of[tree_id[u]] = u;
  // Inclusive keys first, so that the root lists them and they stay inclusive (§3.4).
  std::vector<const Column*> order;
  for (const Column& c : columns_)
    if (c.inclusive) order.push_back(&c);
  for (const Column& c : columns_)
    if (!c.inclusive) order.push_back(&c);
  for (NodeId n = 0; n < tree.size(); ++n) {
    for (const Column* c : order) SetValue(tree, n, *c, union_of[n]);
  }
  tree.mutable_devices() = devices;
  PROTON_RETURN_IF_ERROR(PrepareProfile(tree, display_name));
  return tree;
}

}  // namespace proton::viewer
