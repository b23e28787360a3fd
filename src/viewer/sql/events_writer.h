// Rows of the events table (formats.md §8) for trace inputs: the seam the trace reader
// (src/viewer/traces, another branch) fills once both are merged. Tree profiles write none.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "util/status.h"
#include "viewer/sql/sqlite_db.h"

namespace proton::viewer {

// One trace event, times in nanoseconds on the trace's clock. The views must outlive the
// call that writes them.
struct DbEvent {
  std::string_view kind = {};  // "kernel", "scope", "metric" or "launch"
  std::string_view name = {};
  std::optional<int64_t> frame_id = std::nullopt;  // its call path in frames, when known
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  std::optional<std::string_view> device = std::nullopt;
  std::optional<int64_t> stream = std::nullopt;
  std::optional<int64_t> thread = std::nullopt;
  std::optional<std::string_view> lane = std::nullopt;
  std::optional<int64_t> correlation = std::nullopt;       // the launch->kernel flow id
  std::optional<std::string_view> metrics = std::nullopt;  // a JSON object's text
};

// Appends `events` of file `file_id` to the events table (event_id numbered by SQLite).
Status WriteEvents(SqlDatabase& db, int64_t file_id, std::span<const DbEvent> events);

}  // namespace proton::viewer
