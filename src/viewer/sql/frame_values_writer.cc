// See frame_values_writer.h.
#include "viewer/sql/frame_values_writer.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace proton::viewer {
namespace {

constexpr int kFixedColumns = 2;  // file_id, frame_id

// A number: NULL for NaN (missing), an integer where the column's values are integers.
void BindNumber(SqlStatement& s, int index, double v, bool integer) {
  if (std::isnan(v)) return;
  if (integer && std::fabs(v) < 9.2e18)
    s.BindInt(index, static_cast<int64_t>(v));
  else
    s.BindDouble(index, v);
}

// The frame's own value as stored: integers exactly, doubles, and (for `text`) strings;
// null, absent, boolean, vector and object values are NULL.
void BindOwn(SqlStatement& s, int index, const RawColumn& c, NodeId n, bool text) {
  switch (c.type[n]) {
    case ValueType::kInt: s.BindInt(index, c.int_value(n)); return;
    case ValueType::kDouble: BindNumber(s, index, c.own[n], false); return;
    case ValueType::kString:
      if (text) s.BindText(index, c.str(n));
      return;
    default: return;
  }
}

// What the viewer shows for the raw metric (§3.5): the inclusive sum of a metric its file
// lists on the root, else the own value.
void BindShown(SqlStatement& s, int index, const RawColumn& c, NodeId n) {
  if (c.inclusive && !c.inc.empty()) {
    BindNumber(s, index, c.inc[n], c.kind == ColumnKind::kInteger);
  } else {
    BindOwn(s, index, c, n, true);
  }
}

// Whether an -m item is a raw metric under its own name, whose value column holds it already.
bool IsRawUnderItsName(const ProfileTree& tree, const ColumnRef& ref) {
  if (ref.source == ColumnRef::Source::kExtra) return false;
  const std::string& key = tree.columns()[static_cast<size_t>(ref.index)].key;
  return std::equal(key.begin(), key.end(), ref.item.begin(), ref.item.end(), [](char a, char b) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    return lower(a) == lower(b);
  });
}

// Node ids of `union_id` in increasing union id.
std::vector<NodeId> InFrameOrder(const std::vector<NodeId>& union_id) {
  std::vector<NodeId> order(union_id.size());
  std::iota(order.begin(), order.end(), NodeId{0});
  const auto by_frame = [&](NodeId a, NodeId b) { return union_id[a] < union_id[b]; };
  if (!std::is_sorted(order.begin(), order.end(), by_frame)) {
    std::sort(order.begin(), order.end(), by_frame);
  }
  return order;
}

}  // namespace

Result<std::vector<FrameValuesWriter::Cell>> FrameValuesWriter::Plan(const LoadedFile& file) {
  std::vector<Cell> cells;
  const ProfileTree& tree = file.tree;
  for (size_t c = 0; c < tree.columns().size(); ++c) {
    const RawColumn& raw = tree.columns()[c];
    PROTON_ASSIGN_OR_RETURN(const ValueColumns::Pair pair,
                            columns_.ForRaw(db_, raw.key, raw.numeric()));
    columns_.CountFile(raw.key, raw.inclusive);
    cells.push_back({Cell::From::kShown, c, pair.value});
    if (pair.exclusive != ValueColumns::kNone) {
      cells.push_back({Cell::From::kOwn, c, pair.exclusive});
    }
  }
  for (size_t i = 0; i < file.columns.size(); ++i) {
    if (IsRawUnderItsName(tree, file.columns[i])) continue;
    PROTON_ASSIGN_OR_RETURN(const int column, columns_.ForItem(db_, file.columns[i].item));
    const bool repeated = std::any_of(cells.begin(), cells.end(), [&](const Cell& cell) {
      return cell.from == Cell::From::kItem && cell.column == column;
    });
    if (repeated) continue;  // -m time/us,time/us
    columns_.CountItemFile(file.columns[i].item);
    cells.push_back({Cell::From::kItem, i, column});
  }
  return cells;
}

Status FrameValuesWriter::ReadyInsert() {
  if (insert_ != nullptr && insert_columns_ == columns_.size()) return Status();
  insert_columns_ = columns_.size();
  insert_ = std::make_unique<BatchInsert>(db_, "frame_values",
                                          kFixedColumns + static_cast<int>(insert_columns_));
  return Status();
}

Status FrameValuesWriter::Write(int64_t file_id, const LoadedFile& file,
                                const std::vector<NodeId>& union_id) {
  PROTON_ASSIGN_OR_RETURN(const std::vector<Cell> cells, Plan(file));
  PROTON_RETURN_IF_ERROR(ReadyInsert());
  const ProfileTree& tree = file.tree;
  PROTON_RETURN_IF_ERROR(insert_->Start(tree.size()));
  for (const NodeId n : InFrameOrder(union_id)) {
    PROTON_RETURN_IF_ERROR(insert_->Add([&](SqlStatement& s, int first) {
      s.BindInt(first, file_id);
      s.BindInt(first + 1, union_id[n]);
      for (const Cell& cell : cells) {
        const int index = first + kFixedColumns + cell.column;
        if (cell.from == Cell::From::kItem) {
          BindNumber(s, index, file.columns[cell.index].Value(tree, n), false);
          continue;
        }
        const RawColumn& raw = tree.columns()[cell.index];
        if (cell.from == Cell::From::kShown)
          BindShown(s, index, raw, n);
        else
          BindOwn(s, index, raw, n, false);
      }
    }));
  }
  return Status();
}

}  // namespace proton::viewer
