// The SQLite schema of a profile database (formats.md §8; viewer.md §11.13), in three steps:
// the tables before any row, the indexes after every row (creating them at the end sorts
// each once instead of updating it on every insert), and the views over what the rows made
// of frame_values (its metric columns are known only then).
#pragma once

#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/sql/sqlite_db.h"

namespace proton::viewer {

// PRAGMA user_version of the databases this viewer writes; raised when the schema changes.
inline constexpr int kProfileSchemaVersion = 2;

// One metric column pair of frame_values, for the views.
struct MetricColumnNames {
  std::string metric;     // the raw key, or the -m item
  std::string value;      // the column holding what the viewer shows
  std::string exclusive;  // the column of the frame's own value; "" when there is none
};

// files, devices, frames, frame_values (file_id, frame_id only), metrics, events.
Status CreateTables(SqlDatabase& db);
// The indexes of the joins (formats.md §8).
Status CreateIndexes(SqlDatabase& db);
// frame_paths, frame_rows and metric_values.
Status CreateViews(SqlDatabase& db, const std::vector<MetricColumnNames>& columns);

}  // namespace proton::viewer
