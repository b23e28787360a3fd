// The profile tree model: the in-memory call tree the readers (src/format) build and the viewer
// (src/viewer) reads (spec viewer.md §3, §5.4, §6, §12), and the declared API of every
// structural operation on it: frame removal, inclusive sums, filter kept sets,
// reduction + duplicate merging, the diff union, and pre-order walks.
//
// Layout: struct-of-arrays indexed by NodeId. Node ids are always in FILE pre-order
// (depth-first, parent before children, children in file order), so parent(n) < n for every
// n != root, and every operation that rebuilds the tree renumbers it to keep this invariant.
// That makes bottom-up passes a reverse loop over ids and top-down passes a forward loop,
// with no recursion: 100,000-level trees work everywhere (§11.4). Nothing is quadratic.
//
// Readers (src/format/profile_reader.h) build a tree with AddNode/Set*; PrepareProfile() then
// applies §3.3 and computes everything else. The viewer (metrics, filters, printers) reads the
// tree through the const accessors and attaches derived columns as ExtraColumns.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "util/status.h"

namespace proton::tree {

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();
inline constexpr uint32_t kNoString = std::numeric_limits<uint32_t>::max();
inline constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

// Hash for std::string keys that also accepts std::string_view lookups (no allocation).
struct StringViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using StringIdMap = std::unordered_map<std::string, uint32_t, StringViewHash, std::equal_to<>>;

// The JSON/MessagePack type of one metric value at one node.
enum class ValueType : uint8_t {
  kAbsent,  // the node's metrics object has no such key
  kNull,    // the key is present with null/nil: a missing value that still lists the key
  kInt,     // integer written without fraction/exponent that fits int64 (§3.6)
  kDouble,  // any other number, including NaN/Infinity tokens and uint64 > 2^63-1
  kString,
  kBool,
  kArray,   // vector metric
  kObject,  // nested object (never written by Proton; non-numeric)
};

// What a whole column holds, over the nodes of the tree (§3.6).
enum class ColumnKind : uint8_t {
  kEmpty,       // no node has a present (non-null) value
  kInteger,     // every present value is kInt: sums are exact int64 (wrapping like numpy)
  kDouble,      // every present value is a number, at least one kDouble
  kNonNumeric,  // some present value is a string, bool, array or object
};

// One raw metric key ("time (ns)", "count", "device_id", ...): the node's own values, and
// for inclusive (root-listed) numeric columns also the `(inc)` sums of §3.8.
// All per-node vectors have size() == tree.size() unless documented as possibly empty.
struct RawColumn {
  std::string key;         // exactly as in the file
  bool inclusive = false;  // listed on the root (§3.4)
  ColumnKind kind = ColumnKind::kEmpty;

  std::vector<ValueType> type;  // per node
  std::vector<double> own;      // per node: the number, NaN when not a number or missing
  // Per node exact value when type[n] == kInt, else 0. EMPTY (to save memory) unless some
  // integer of this column has |v| > 2^53, i.e. is not exact in `own`; use int_value().
  std::vector<int64_t> own_int;
  // Per node: index into `strings` when type[n] == kString, else kNoString. Empty when the
  // column holds no string at all.
  std::vector<uint32_t> own_str;
  std::vector<std::string> strings;  // interned string values of this column

  // Inclusive sums (§3.8); empty unless `inclusive` and kind is kInteger, kDouble or kEmpty
  // (all NaN then). inc[n] is NaN exactly when the node's own value and all descendants'
  // values are missing/NaN. For kInteger columns the sum is done exactly in int64 (wrapping
  // like numpy) and converted to double once, so inc[n] == double(exact sum).
  std::vector<double> inc;

  // First appearance (pre-order node id, key position inside that node's metrics object):
  // orders the metric table (§3.4). Maintained by the builder; internal.
  NodeId first_node = kNoNode;
  uint32_t first_pos = 0;
  StringIdMap string_ids;
  uint32_t last_string =
      kNoString;  // builder only: the last interned id  // builder only: interning

  bool numeric() const { return kind == ColumnKind::kInteger || kind == ColumnKind::kDouble; }
  bool present(NodeId n) const {
    return type[n] != ValueType::kAbsent && type[n] != ValueType::kNull;
  }
  // Exact integer value of a kInt cell (0 otherwise).
  int64_t int_value(NodeId n) const {
    return type[n] != ValueType::kInt ? 0
           : own_int.empty()          ? static_cast<int64_t>(own[n])
                                      : own_int[n];
  }
  // The node's own string value, or "" when it is not a string.
  std::string_view str(NodeId n) const {
    return own_str.empty() || own_str[n] == kNoString ? std::string_view() : strings[own_str[n]];
  }
  // The value a printer/formula should use for this column: inc for inclusive columns, own
  // otherwise (NaN = missing). Only meaningful for numeric columns.
  double display(NodeId n) const { return inclusive ? inc[n] : own[n]; }
};

// A per-node double column computed by the metrics (derived metrics, §4) BEFORE filtering. The tree
// carries it through every structural operation: reduction keeps the kept nodes' values,
// merging duplicates sums them NaN-skipping (NaN only if all are NaN). Never recomputed.
struct ExtraColumn {
  std::string label;           // free for the metrics' use; structural ops only copy it
  std::vector<double> values;  // per node
};

// Element 1 of the document (formats.md §2.5). A field that is absent (or has the wrong JSON
// type) is "not present", so the metrics can report "incomplete device information".
struct DeviceInfo {
  std::string arch;  // a string in the file; an integer arch is kept as its decimal text
  bool has_arch = false;
  double bus_width = kMissing;  // NaN when absent or not a number
  double clock_rate = kMissing;
  double memory_clock_rate = kMissing;
  double num_sms = kMissing;
};
struct DeviceTable {
  struct Entry {
    std::string device_type;   // "CUDA", "HIP", ...
    std::string device_index;  // "0", "1", ...
    DeviceInfo info;
  };
  std::vector<Entry> entries;  // file order; a repeated (type, index) keeps the last value
  bool has_type(std::string_view device_type) const;
  // nullptr when the type or the index is not listed.
  const DeviceInfo* Find(std::string_view device_type, std::string_view device_index) const;
};

// A regrouping of a tree's nodes: new node i (ids in pre-order) is the old nodes
// members[begin[i] .. begin[i+1]), the first one being the representative whose name and type
// it takes (tree_regroup.h computes one).
struct Grouping {
  std::vector<NodeId> parent;   // per new node
  std::vector<uint64_t> begin;  // size = new nodes + 1
  std::vector<NodeId> members;
};

class ProfileTree {
 public:
  // ---- Building (readers, tests). Nodes must be added in FILE pre-order: the first node is
  // the root (parent kNoNode); each later node's parent is the previous node or one of its
  // ancestors. Returns the new node's id (== number of nodes added before it).
  // (Strictly, only parent < id is needed for correctness of every pass; pre-order is what
  // makes "file order" and first appearance mean what the spec says. A parent that is not
  // an earlier node, or a second root, is attached to the root instead.)
  NodeId AddNode(NodeId parent, std::string_view name, std::string_view type = "function");
  // The same in two steps, for JSON where "children" precedes "frame" (sorted keys): the id
  // is taken when the node's object opens; the frame is set whenever it is read.
  NodeId AddNode(NodeId parent);
  void SetFrame(NodeId n, std::string_view name, std::string_view type);
  // Set one metric of node n (normally the node added last). Repeating a key on the same
  // node overwrites the value (JSON duplicate keys: last wins) but keeps the key's first
  // position. Column order = order of first appearance over the whole tree.
  void SetInt(NodeId n, std::string_view key, int64_t v);
  void SetDouble(NodeId n, std::string_view key, double v);
  void SetString(NodeId n, std::string_view key, std::string_view v);
  void SetNull(NodeId n, std::string_view key);
  void SetOther(NodeId n, std::string_view key, ValueType t);  // kBool, kArray, kObject
  DeviceTable& mutable_devices() { return devices_; }

  // ---- Structure (valid after PrepareProfile / any op below).
  size_t size() const { return parent_.size(); }
  static constexpr NodeId root() { return 0; }
  NodeId parent(NodeId n) const { return parent_[n]; }  // kNoNode for the root
  uint32_t depth(NodeId n) const { return depth_[n]; }  // root = 0
  std::string_view name(NodeId n) const {
    return std::string_view(names_).substr(name_off_[n], name_len_[n]);
  }
  std::string_view type(NodeId n) const { return types_[type_[n]]; }
  // Bytes in the name arena (an upper bound of the names' total length): sizes reservations.
  size_t name_bytes() const { return names_.size(); }
  // Children in file order (used for inclusive sums and merges).
  std::span<const NodeId> children(NodeId n) const {
    return {children_.data() + child_begin_[n], child_begin_[n + 1] - child_begin_[n]};
  }
  // Children sorted by (name, type), bytewise memcmp, file order kept for equal keys (§3.7).
  // Use this for printing, row order and matching.
  std::span<const NodeId> sorted_children(NodeId n) const {
    return {sorted_children_.data() + child_begin_[n], child_begin_[n + 1] - child_begin_[n]};
  }

  // ---- Metric table (§3.4). columns() holds the inclusive columns first (the root's keys in
  // file order), then the exclusive ones in first-appearance order; the user-visible
  // exclusive list is the pseudo-metric "name" followed by columns()[num_inclusive()...].
  // A metric key literally called "name" is not listed as a column.
  const std::vector<RawColumn>& columns() const { return columns_; }
  size_t num_inclusive() const { return num_inclusive_; }
  int FindColumn(std::string_view key) const;  // exact key; -1 when absent
  const DeviceTable& devices() const { return devices_; }

  // Derived columns attached by the metrics (one value per node, size() == size()).
  std::vector<ExtraColumn>& extra_columns() { return extra_; }
  const std::vector<ExtraColumn>& extra_columns() const { return extra_; }

  // ---- Internal: used by the structural operations (tree_*.cc) and readers.
  // Finalize = BuildStructure + ComputeColumnTable + ComputeInclusive.
  void Finalize();
  // children/sorted_children from parent_ (O(n log n): the sibling sort, skipped for
  // siblings already in order).
  void BuildStructure(bool sort_children = true);
  // Column kinds, drops columns no node lists (and a key called "name"), orders the table:
  // inclusive (root's keys) first, then by first appearance.
  void ComputeColumnTable();
  void ComputeInclusive();  // §3.8 over the current nodes
  void Reserve(size_t nodes, size_t name_bytes);
  bool has_metrics(NodeId n) const { return has_metrics_[n] != 0; }

  // ---- Editing, for the structural operations (tree_*.cc). Both keep node ids in pre-order
  // (checked by tree_invariants.h where DCHECKs are on); callers run BuildStructure() and
  // ComputeInclusive() (or Finalize()) on the result.
  // The tree of the groups: frames from the representative, values combined (§3.7: numeric
  // columns and extra columns summed skipping NaN, others the first member's). The result
  // has parent/depth/frames/columns.
  ProfileTree Regrouped(const Grouping& grouping) const;
  // Keeps the nodes with keep[n] != 0 in place (no second tree, no new memory): `keep` must
  // be closed under ancestors, so ids stay pre-order and each kept node moves to a smaller or
  // equal index. Names stay in the arena.
  void Compact(const std::vector<uint8_t>& keep);

 private:
  // Adds one node per group of `old` to this (empty) tree, the union of the members'
  // has_metrics; returns the new id of every old node that is a member of some group,
  // kNoNode for the others.
  std::vector<NodeId> AddGroupNodes(const ProfileTree& old, const Grouping& grouping);
  RawColumn& ColumnFor(NodeId node, std::string_view key);
  // The steps of ColumnFor: the column the hints name for `key` (kNoString if none), the
  // hash map's column (added when new), and the node's cell made ready to be set.
  uint32_t HintedColumn(uint32_t position, size_t after_previous, std::string_view key) const;
  uint32_t FindOrAddColumn(std::string_view key);
  static void ClearCell(RawColumn& column, NodeId node, uint32_t position);
  uint16_t InternType(std::string_view type);

  std::vector<NodeId> parent_;
  std::vector<uint32_t> depth_;
  std::vector<uint64_t> name_off_;
  std::vector<uint32_t> name_len_;
  std::vector<uint16_t> type_;        // index into types_
  std::vector<uint8_t> has_metrics_;  // the node's metrics object had at least one key
  NodeId key_node_ = kNoNode;         // node of the last Set* call, and its key counter
  uint32_t key_pos_ = 0;
  std::string names_;                                        // arena of all names
  std::vector<std::string> types_{std::string("function")};  // interned frame types
  std::vector<uint32_t> pos_hint_;  // key position -> column last seen there (fast lookup)
  // (previous key's column + 1, or 0 for a node's first key) -> the two columns last seen next
  std::vector<std::array<uint32_t, 2>> next_hint_;
  uint32_t prev_column_ = 0;           // column of the previous key of node key_node_
  std::vector<uint64_t> child_begin_;  // size()+1 offsets into children_/sorted_children_
  std::vector<NodeId> children_;
  std::vector<NodeId> sorted_children_;
  std::vector<RawColumn> columns_;
  size_t num_inclusive_ = 0;
  StringIdMap column_index_;
  DeviceTable devices_;
  std::vector<ExtraColumn> extra_;
};

// ---- §3.3 + finishing a freshly read tree. Removes `__proton_launch_metadata` frames (exact
// name or prefix `__proton_launch_metadata:`) with their subtrees, then bottom-up every node
// with no metric keys (not even a null one) and no remaining children; a node with own
// metrics is kept (deliberate difference 10). Then Finalize(): metric table order and kinds
// are computed over the surviving nodes only, inclusive sums computed.
// Error when the root is removed: "'<display_name>' contains no profile data".
Status PrepareProfile(ProfileTree& tree, std::string_view display_name);
// Whether `status` is PrepareProfile's "contains no profile data" for `display_name`.
bool IsNoProfileData(const Status& status, std::string_view display_name);

// ---- Filters (§5.3, §12). `matched` has one byte per node (nonzero = in M). The kept set
// always contains the ancestors of its members; an empty result means the root is not kept.
enum class FilterKind { kInclude, kExclude, kThreshold };
//   kInclude:   M + ancestors + descendants
//   kExclude:   all nodes minus (M + descendants)
//   kThreshold: M + ancestors
std::vector<uint8_t> KeptNodes(const ProfileTree& tree, FilterKind kind,
                               const std::vector<uint8_t>& matched);

// §5.4: reduce the tree to the nodes with kept[n] != 0 (relative order kept), merge duplicate
// siblings, recompute every inclusive raw column (`inc`) from the kept nodes' own values.
// Extra columns are carried (summed on merge), never recomputed; own values of exclusive
// columns are carried (numeric: summed on merge; non-numeric: first node's value).
// Returns false (tree unchanged) when the root is not kept: the caller reports §5.5's error.
bool ReduceTree(ProfileTree& tree, const std::vector<uint8_t>& kept);

// KeptNodes + ReduceTree.
bool ApplyFilter(ProfileTree& tree, FilterKind kind, const std::vector<uint8_t>& matched);

// §3.7 merge of duplicate siblings (equal (name, type)), recursively; the merged node takes
// the first duplicate's position, children are united in order (first's, then second's, ...)
// and merged again. Column rules as in ReduceTree; inclusive sums recomputed afterwards.
// A no-op (cheap check) when there are no duplicates.
void MergeDuplicates(ProfileTree& tree);

// ---- Diff (§6). Both inputs must have been through MergeDuplicates (ApplyFilter does it).
// The union is itself a ProfileTree with no columns whose node ids are pre-order in SORTED
// child order, so children(n) == sorted_children(n). The roots are matched with each other
// (the union root takes left's name); every other node by its (name, type) path.
struct DiffUnion {
  ProfileTree tree;
  std::vector<NodeId> left;       // per union node: node id in FILE (left), or kNoNode
  std::vector<NodeId> right;      // per union node: node id in OTHER (right), or kNoNode
  std::vector<NodeId> row_order;  // left-present nodes in pre-order, then right-only ones
  bool sides_differ = false;      // some node is on one side only (markers are printed)
};
DiffUnion BuildDiffUnion(const ProfileTree& left, const ProfileTree& right);

// ---- Walks (explicit stacks). Pre-order in sorted child order: the tree's print order and
// the non-diff "row order" of --print-sorted (§7.7). visit(n) returns whether to descend into
// n's children (return false to cut at -d). The vector form visits everything.
void ForEachSortedPreOrder(const ProfileTree& tree, const std::function<bool(NodeId)>& visit);
std::vector<NodeId> SortedPreOrder(const ProfileTree& tree);

}  // namespace proton::tree
