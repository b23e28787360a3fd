// Writes a profile database (formats.md §8) one file at a time: each file's row, devices and
// frame values go into the database as it comes (FILE order), and only the union tree of
// the frames stays in memory, so memory follows the union, not the sum of the files
// (viewer.md §11.13). The frames, the metric catalogue, the indexes and the views are
// written at the end, in the same transaction.
#pragma once

#include <cstdint>
#include <vector>

#include "util/status.h"
#include "viewer/merge/merge_load.h"
#include "viewer/merge/merge_union.h"
#include "viewer/sql/frame_facts.h"
#include "viewer/sql/frame_values_writer.h"
#include "viewer/sql/sqlite_db.h"
#include "viewer/sql/value_columns.h"

namespace proton::viewer {

class ProfileDbWriter {
 public:
  explicit ProfileDbWriter(SqlDatabase& db) : db_(db), values_(db, columns_) {}
  ProfileDbWriter(const ProfileDbWriter&) = delete;
  ProfileDbWriter& operator=(const ProfileDbWriter&) = delete;

  // Creates the tables in an empty database and opens the transaction.
  Status Begin();
  // Adds the file at position `file_id` of the FILEs: prepared (§3.3), duplicates merged,
  // with its -m columns, or empty (a profile without data).
  Status AddFile(int64_t file_id, const LoadedFile& file);
  // The frames, the metric catalogue, the indexes and views; commits.
  Status Finish();

 private:
  Status WriteFileRow(int64_t file_id, const LoadedFile& file);
  Status WriteDevices(int64_t file_id, const DeviceTable& devices);
  // The frames of the union, noting their names in `forms`; then the names table.
  Status WriteFrames(FrameNameForms& forms);
  Status WriteNames(const FrameNameForms& forms);

  SqlDatabase& db_;
  ValueColumns columns_;
  FrameValuesWriter values_;
  MergeUnion union_;
  std::vector<uint8_t> kernel_;  // per union frame: a kernel in some file
  SqlStatement file_insert_;
  SqlStatement device_insert_;
};

}  // namespace proton::viewer
