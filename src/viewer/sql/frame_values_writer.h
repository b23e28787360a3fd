// The rows of frame_values (formats.md §8) of one file: one per frame it holds, in frame_id
// order (so that each file's rows append to the table's primary key), with the value the
// viewer shows and the frame's own value of every metric, and the file's -m columns.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "util/status.h"
#include "viewer/common/tree_names.h"
#include "viewer/merge/merge_load.h"
#include "viewer/sql/batch_insert.h"
#include "viewer/sql/value_columns.h"

namespace proton::viewer {

class FrameValuesWriter {
 public:
  FrameValuesWriter(SqlDatabase& db, ValueColumns& columns) : db_(db), columns_(columns) {}

  // `file` has been through MergeDuplicates; union_id maps its nodes to frame ids; its
  // `columns` are the -m items it was derived with.
  Status Write(int64_t file_id, const LoadedFile& file, const std::vector<NodeId>& union_id);

 private:
  // Where one cell of a row comes from.
  struct Cell {
    enum class From { kShown, kOwn, kItem } from;
    size_t index;  // into tree.columns() or file.columns
    int column;    // metric column position
  };
  Result<std::vector<Cell>> Plan(const LoadedFile& file);
  Status ReadyInsert();

  SqlDatabase& db_;
  ValueColumns& columns_;
  std::unique_ptr<BatchInsert> insert_;  // for the current number of columns
  size_t insert_columns_ = 0;
};

}  // namespace proton::viewer
