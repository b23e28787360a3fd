// The metric columns of frame_values (formats.md §8): one per metric for the value the viewer
// shows, `<metric> (exc)` for the frame's own value of a numeric metric. Columns are added
// (ALTER TABLE) as files bring new metrics, so a database of many files has the union of
// their metrics; a few common ones exist in every database, so that queries naming them
// (the bundled ones among them) work on any profile.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "util/status.h"
#include "viewer/sql/sql_schema.h"
#include "viewer/sql/sqlite_db.h"

namespace proton::viewer {

class ValueColumns {
 public:
  static constexpr int kNone = -1;

  // Registers the columns every database has.
  Status AddCommon(SqlDatabase& db);

  // The position (from 0, after file_id and frame_id) of `metric`'s value column and, when
  // `numeric`, of its exclusive column (kNone otherwise), adding what is missing.
  struct Pair {
    int value = kNone;
    int exclusive = kNone;
  };
  Result<Pair> ForRaw(SqlDatabase& db, std::string_view metric, bool numeric);
  // An -m item's column: value only, derived.
  Result<int> ForItem(SqlDatabase& db, std::string_view item);
  // Whether a column of this name exists (compared as SQLite compares names: ASCII case
  // ignored).
  bool HasName(std::string_view name) const;

  // Counts, for the metrics table: one more file lists `metric` (inclusive or not), or
  // was derived with the -m `item`.
  void CountFile(std::string_view metric, bool inclusive);
  void CountItemFile(std::string_view item);

  size_t size() const { return names_.size(); }
  std::vector<MetricColumnNames> Names() const;
  // Writes the metrics table.
  Status WriteCatalogue(SqlDatabase& db) const;

 private:
  struct Metric {
    std::string name;
    int value = kNone;
    int exclusive = kNone;
    bool derived = false;
    int64_t files = 0;
    int64_t inclusive_files = 0;
  };
  // Adds a column named `wanted` (or `wanted #2`, ... when SQLite would see it as taken).
  Result<int> AddColumn(SqlDatabase& db, std::string_view wanted);
  // The index in metrics_ of `name`, added when new.
  size_t Find(std::string_view name, bool derived);

  std::vector<std::string> names_;         // column names, in table order
  std::unordered_set<std::string> taken_;  // lower-cased names, the fixed columns' included
  std::vector<Metric> metrics_;
  std::unordered_map<std::string, size_t> raw_index_;   // raw key -> metrics_
  std::unordered_map<std::string, size_t> item_index_;  // -m item -> metrics_
};

}  // namespace proton::viewer
