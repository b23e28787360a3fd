// --merge=sum (viewer.md §11.11): the raw metrics of every file added up per union node, then
// turned into one ordinary profile, so that derivation, filters and printing work on the
// sum exactly as on a single file. Memory follows the union tree.
#pragma once

#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/common/tree_names.h"
#include "viewer/merge/merge_union.h"

namespace proton::viewer {

class MergeSum {
 public:
  // Adds the own values of every raw column of `tree` (no duplicate siblings) at the union
  // nodes `union_id` (from MergeUnion::Map; `union_size` is the union's size after it).
  void Add(const ProfileTree& tree, const std::vector<NodeId>& union_id, size_t union_size);

  // The summed profile on `merged`'s nodes, prepared (§3.3) with `devices` as its device
  // table; `display_name` names it in messages.
  Result<ProfileTree> Build(const MergeUnion& merged, const DeviceTable& devices,
                            std::string_view display_name) const;

 private:
  // One raw metric key over the union. Integers add exactly (wrapping like numpy); a double
  // in any file makes the node's sum a double. A non-numeric value (string, bool, array) is
  // the first file's, and numbers meeting it are ignored.
  struct Column {
    std::string key;
    bool inclusive = false;           // listed on some file's root
    std::vector<ValueType> type;      // per union node
    std::vector<int64_t> ints;        // exact sum while type is kInt
    std::vector<double> doubles;      // sum once type is kDouble
    std::vector<uint32_t> string_id;  // kString: index into strings
    std::vector<std::string> strings;
    StringIdMap string_ids;
  };
  Column& ColumnFor(const RawColumn& raw);
  static void AddValue(Column& column, NodeId u, const RawColumn& raw, NodeId n);
  static void SetValue(ProfileTree& tree, NodeId n, const Column& column, NodeId u);

  std::vector<Column> columns_;
  StringIdMap column_index_;
};

}  // namespace proton::viewer
