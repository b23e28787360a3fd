// ProfileTree: building, structure (children, sorted children), the metric table (§3.4,
// §3.6) and inclusive sums (§3.8). Every pass is a loop over pre-order ids, never recursion.
#include "tree/profile_tree.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "tree/nan_add.h"
#include "tree/tree_invariants.h"

namespace proton::tree {

namespace {

constexpr double kExactIntLimit = 9007199254740992.0;  // 2^53

// Asks for transparent huge pages on a large, still untouched reservation: filling a 1M-node
// tree otherwise costs one page fault per 4 KB, which dominates on virtual machines. Only
// whole 2 MB-aligned ranges inside become huge pages; untouched ones still cost nothing.
template <typename V>
void AdviseHugePages(const V& v) {
  const size_t bytes = v.capacity() * sizeof(typename V::value_type);
  if (bytes < (size_t{4} << 20)) return;  // at least one whole 2 MB page inside
  const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<uintptr_t>(v.data()) + page - 1) & ~(page - 1);
  const auto end = (reinterpret_cast<uintptr_t>(v.data()) + bytes) & ~(page - 1);
  // madvise takes whole pages: the range is rounded as an integer, then made an address.
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// reserve() + AdviseHugePages: for the per-node arrays that passes (re)build from scratch.
template <typename V>
void ReserveHuge(V& v, size_t n) {
  if (v.capacity() < n) v.reserve(n);
  AdviseHugePages(v);
}

}  // namespace

bool DeviceTable::has_type(std::string_view device_type) const {
  for (const Entry& e : entries)
    if (e.device_type == device_type) return true;
  return false;
}

const DeviceInfo* DeviceTable::Find(std::string_view device_type,
                                    std::string_view device_index) const {
  for (const Entry& e : entries)
    if (e.device_type == device_type && e.device_index == device_index) return &e.info;
  return nullptr;
}

void ProfileTree::Reserve(size_t nodes, size_t name_bytes) {
  parent_.reserve(nodes);
  depth_.reserve(nodes);
  name_off_.reserve(nodes);
  name_len_.reserve(nodes);
  type_.reserve(nodes);
  has_metrics_.reserve(nodes);
  names_.reserve(name_bytes);
  AdviseHugePages(parent_);
  AdviseHugePages(depth_);
  AdviseHugePages(name_off_);
  AdviseHugePages(name_len_);
  AdviseHugePages(type_);
  AdviseHugePages(has_metrics_);
  AdviseHugePages(names_);
}

uint16_t ProfileTree::InternType(std::string_view type) {
  for (size_t i = 0; i < types_.size(); ++i)
    if (types_[i] == type) return static_cast<uint16_t>(i);
  // Frame types are "function" in every Proton file; a file with more than 65535 distinct
  // types would be absurd, so the last slot absorbs the rest rather than overflowing.
  if (types_.size() >= 0xffff) return 0xfffe;
  types_.emplace_back(type);
  return static_cast<uint16_t>(types_.size() - 1);
}

NodeId ProfileTree::AddNode(NodeId parent) {
  const NodeId id = static_cast<NodeId>(parent_.size());
  // Every pass relies on parent < child; a misused builder must not corrupt memory.
  if (id > 0 && (parent == kNoNode || parent >= id)) parent = 0;
  if (id == 0) parent = kNoNode;
  parent_.push_back(parent);
  depth_.push_back(parent == kNoNode ? 0 : depth_[parent] + 1);
  name_off_.push_back(0);
  name_len_.push_back(0);
  type_.push_back(0);
  has_metrics_.push_back(0);
  return id;
}

void ProfileTree::SetFrame(NodeId n, std::string_view name, std::string_view type) {
  name_off_[n] = names_.size();
  name_len_[n] = static_cast<uint32_t>(name.size());
  names_.append(name);
  type_[n] = InternType(type);
}

NodeId ProfileTree::AddNode(NodeId parent, std::string_view name, std::string_view type) {
  const NodeId id = AddNode(parent);
  SetFrame(id, name, type);
  return id;
}

uint32_t ProfileTree::HintedColumn(uint32_t position, size_t after_previous,
                                   std::string_view key) const {
  if (position < pos_hint_.size()) {
    const uint32_t hint = pos_hint_[position];
    if (hint < columns_.size() && columns_[hint].key == key) return hint;
  }
  if (after_previous < next_hint_.size()) {
    for (uint32_t hint : next_hint_[after_previous]) {
      if (hint < columns_.size() && columns_[hint].key == key) return hint;
    }
  }
  return kNoString;
}

uint32_t ProfileTree::FindOrAddColumn(std::string_view key) {
  auto found = column_index_.find(key);
  if (found != column_index_.end()) return found->second;
  const auto index = static_cast<uint32_t>(columns_.size());
  RawColumn& column = columns_.emplace_back();
  column.key = std::string(key);
  // Readers reserve the node arrays from the input size; reserving the columns alike
  // avoids regrowth copies (untouched capacity costs address space, not memory).
  column.type.reserve(parent_.capacity());
  column.own.reserve(parent_.capacity());
  AdviseHugePages(column.type);
  AdviseHugePages(column.own);
  column_index_.emplace(std::string(key), index);
  return index;
}

void ProfileTree::ClearCell(RawColumn& column, NodeId node, uint32_t position) {
  if (column.type.size() <= node) {
    column.type.resize(node + 1, ValueType::kAbsent);
    column.own.resize(node + 1, kMissing);
    if (!column.own_int.empty()) column.own_int.resize(node + 1, 0);
    if (!column.own_str.empty()) column.own_str.resize(node + 1, kNoString);
  }
  if (column.first_node == kNoNode || node < column.first_node) {
    column.first_node = node;
    column.first_pos = position;
  }
  if (!column.own_str.empty()) column.own_str[node] = kNoString;
  if (!column.own_int.empty()) column.own_int[node] = 0;
}

RawColumn& ProfileTree::ColumnFor(NodeId node, std::string_view key) {
  if (key_node_ != node) {
    key_node_ = node;
    key_pos_ = 0;
    prev_column_ = kNoString;
  }
  const uint32_t position = key_pos_++;
  has_metrics_[node] = 1;
  // Nodes repeat a few key sequences (e.g. kernels with and without flops/bytes, in turns), so
  // the column last seen at this key position, or one of the two last seen after the previous
  // key's column, is almost always the right one; the hash map is the fallback.
  const size_t after_previous = prev_column_ == kNoString ? 0 : size_t{prev_column_} + 1;
  uint32_t index = HintedColumn(position, after_previous, key);
  if (index == kNoString) {
    index = FindOrAddColumn(key);
    if (position >= pos_hint_.size()) pos_hint_.resize(position + 1, kNoString);
    pos_hint_[position] = index;
  }
  if (after_previous >= next_hint_.size()) {
    next_hint_.resize(after_previous + 1, {kNoString, kNoString});
  }
  std::array<uint32_t, 2>& next = next_hint_[after_previous];
  if (next[0] != index) next = {index, next[0]};
  prev_column_ = index;
  RawColumn& column = columns_[index];
  ClearCell(column, node, position);
  return column;
}

void ProfileTree::SetInt(NodeId n, std::string_view key, int64_t v) {
  RawColumn& col = ColumnFor(n, key);
  col.type[n] = ValueType::kInt;
  col.own[n] = static_cast<double>(v);
  if (col.own_int.empty() && std::fabs(static_cast<double>(v)) > kExactIntLimit) {
    // First integer that a double cannot hold exactly: switch this column to exact storage.
    col.own_int.assign(col.type.size(), 0);
    // Every other integer of the column is below the limit, so its double is exact; this
    // node's double may be 2^63, which no int64_t holds (it gets `v` below).
    for (size_t i = 0; i < col.type.size(); ++i)
      if (col.type[i] == ValueType::kInt && i != n)
        col.own_int[i] = static_cast<int64_t>(col.own[i]);
  }
  if (!col.own_int.empty()) col.own_int[n] = v;
}

void ProfileTree::SetDouble(NodeId n, std::string_view key, double v) {
  RawColumn& col = ColumnFor(n, key);
  col.type[n] = ValueType::kDouble;
  col.own[n] = v;
}

void ProfileTree::SetString(NodeId n, std::string_view key, std::string_view v) {
  RawColumn& col = ColumnFor(n, key);
  col.type[n] = ValueType::kString;
  col.own[n] = kMissing;
  if (col.own_str.size() < col.type.size()) {
    // First string of the column: reserve like type/own, so growing it per node never copies.
    if (col.own_str.empty()) ReserveHuge(col.own_str, col.type.capacity());
    col.own_str.resize(col.type.size(), kNoString);
  }
  // Kernels repeat the same few strings ("0", "CUDA"): try the last one before hashing.
  uint32_t id = col.strings.empty() ? kNoString : col.last_string;
  if (id != kNoString && col.strings[id] == v) {
    col.own_str[n] = id;
    return;
  }
  auto it = col.string_ids.find(v);
  if (it != col.string_ids.end()) {
    id = it->second;
  } else {
    id = static_cast<uint32_t>(col.strings.size());
    col.strings.emplace_back(v);
    col.string_ids.emplace(std::string(v), id);
  }
  col.own_str[n] = id;
  col.last_string = id;
}

void ProfileTree::SetNull(NodeId n, std::string_view key) {
  RawColumn& col = ColumnFor(n, key);
  col.type[n] = ValueType::kNull;
  col.own[n] = kMissing;
}

void ProfileTree::SetOther(NodeId n, std::string_view key, ValueType t) {
  RawColumn& col = ColumnFor(n, key);
  col.type[n] = t;
  col.own[n] = kMissing;
}

int ProfileTree::FindColumn(std::string_view key) const {
  auto it = column_index_.find(key);
  return it == column_index_.end() ? -1 : static_cast<int>(it->second);
}

void ProfileTree::Finalize() {
  BuildStructure();
  ComputeColumnTable();
  ComputeInclusive();
}

void ProfileTree::BuildStructure(bool sort_children) {
  const size_t n_nodes = size();
  // Columns grow lazily while building (up to the last node that set them): give every
  // column one cell per node before anything indexes them by node id.
  for (RawColumn& col : columns_) {
    col.type.resize(n_nodes, ValueType::kAbsent);
    col.own.resize(n_nodes, kMissing);
    if (!col.own_int.empty()) col.own_int.resize(n_nodes, 0);
    if (!col.own_str.empty()) col.own_str.resize(n_nodes, kNoString);
  }
  ReserveHuge(child_begin_, n_nodes + 1);
  child_begin_.assign(n_nodes + 1, 0);
  for (size_t n = 1; n < n_nodes; ++n) ++child_begin_[parent_[n] + 1];
  for (size_t n = 0; n < n_nodes; ++n) child_begin_[n + 1] += child_begin_[n];
  ReserveHuge(children_, n_nodes);
  children_.resize(n_nodes > 0 ? n_nodes - 1 : 0);
  {
    std::vector<uint64_t> cursor;
    ReserveHuge(cursor, n_nodes);
    cursor.assign(child_begin_.begin(), child_begin_.end() - 1);
    // Ascending ids are pre-order, so each parent's children arrive in file order.
    for (size_t n = 1; n < n_nodes; ++n) children_[cursor[parent_[n]]++] = static_cast<NodeId>(n);
  }
  ReserveHuge(sorted_children_, n_nodes);
  sorted_children_.assign(children_.begin(), children_.end());
  DcheckChildLists(*this);
  if (!sort_children) return;
  auto less = [this](NodeId a, NodeId b) {
    const int c = name(a).compare(name(b));  // char_traits<char> compares as unsigned bytes
    if (c != 0) return c < 0;
    return type_[a] != type_[b] && type(a) < type(b);
  };
  for (size_t n = 0; n < n_nodes; ++n) {
    NodeId* first = sorted_children_.data() + child_begin_[n];
    NodeId* last = sorted_children_.data() + child_begin_[n + 1];
    if (last - first < 2) continue;
    // Triton 3.6 writes children already sorted: check before sorting.
    if (std::is_sorted(first, last, less)) continue;
    std::stable_sort(first, last, less);
  }
}

void ProfileTree::ComputeColumnTable() {
  const size_t n_nodes = size();
  std::vector<RawColumn> kept;
  kept.reserve(columns_.size());
  for (size_t i = 0; i < columns_.size(); ++i) {
    RawColumn& col = columns_[i];
    col.string_ids = {};
    bool listed = false, any_int = false, any_double = false, any_other = false;
    for (ValueType t : col.type) {
      switch (t) {
        case ValueType::kAbsent: break;
        case ValueType::kNull: listed = true; break;
        case ValueType::kInt: listed = any_int = true; break;
        case ValueType::kDouble: listed = any_double = true; break;
        default: listed = any_other = true; break;
      }
    }
    if (!listed || col.key == "name") continue;
    col.kind = any_other    ? ColumnKind::kNonNumeric
               : any_double ? ColumnKind::kDouble
               : any_int    ? ColumnKind::kInteger
                            : ColumnKind::kEmpty;
    if (col.first_node >= n_nodes || col.type[col.first_node] == ValueType::kAbsent) {
      // The recorded first appearance was removed: find the new one. Its position inside
      // the node is unknown, so such keys sort after the node's known keys.
      col.first_node = kNoNode;
      for (size_t n = 0; n < n_nodes; ++n)
        if (col.type[n] != ValueType::kAbsent) {
          col.first_node = static_cast<NodeId>(n);
          break;
        }
      col.first_pos = 0x80000000u + static_cast<uint32_t>(i);
    }
    col.inclusive = n_nodes > 0 && col.type[0] != ValueType::kAbsent;
    kept.push_back(std::move(col));
  }
  // Inclusive first, then by first appearance; stable keeps creation order for full ties.
  std::stable_sort(kept.begin(), kept.end(), [](const RawColumn& a, const RawColumn& b) {
    if (a.inclusive != b.inclusive) return a.inclusive;
    if (a.first_node != b.first_node) return a.first_node < b.first_node;
    return a.first_pos < b.first_pos;
  });
  columns_ = std::move(kept);
  num_inclusive_ = 0;
  column_index_.clear();
  pos_hint_.clear();
  next_hint_.clear();
  key_node_ = kNoNode;
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i].inclusive) ++num_inclusive_;
    column_index_.emplace(columns_[i].key, static_cast<uint32_t>(i));
  }
}

void ProfileTree::ComputeInclusive() {
  const size_t n_nodes = size();
  std::vector<uint64_t> exact;  // reused across integer columns
  for (RawColumn& col : columns_) {
    if (!col.inclusive || col.kind == ColumnKind::kNonNumeric) {
      col.inc.clear();
      col.inc.shrink_to_fit();
      continue;
    }
    ReserveHuge(col.inc, n_nodes);
    col.inc.assign(n_nodes, kMissing);
    if (col.kind == ColumnKind::kInteger) {
      // Exact int64 sums (wrapping like numpy), converted to double once per node.
      ReserveHuge(exact, n_nodes);
      exact.assign(n_nodes, 0);
      for (size_t i = n_nodes; i-- > 0;) {
        const NodeId n = static_cast<NodeId>(i);
        bool have = col.type[n] == ValueType::kInt;
        uint64_t s = have ? static_cast<uint64_t>(col.int_value(n)) : 0;
        for (NodeId c : children(n))
          if (!std::isnan(col.inc[c])) {
            s += exact[c];
            have = true;
          }
        exact[n] = s;
        if (have) col.inc[n] = static_cast<double>(static_cast<int64_t>(s));
      }
    } else {
      // Own value first, then the children's sums in file order (§3.8).
      for (size_t i = n_nodes; i-- > 0;) {
        const NodeId n = static_cast<NodeId>(i);
        double acc = col.own[n];
        for (NodeId c : children(n)) acc = NanAdd(acc, col.inc[c]);
        col.inc[n] = acc;
      }
    }
  }
}

}  // namespace proton::tree
