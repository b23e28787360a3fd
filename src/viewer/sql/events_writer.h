// Rows of the events table (formats.md §8): one per trace event, streamed into batched
// inserts as the trace reader hands them over (trace_events.cc). Tree profiles write none.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"
#include "viewer/sql/batch_insert.h"
#include "viewer/sql/sqlite_db.h"

namespace proton::viewer {

// One trace event, times in nanoseconds on the trace's clock. The views must outlive the
// call that writes them.
struct DbEvent {
  std::string_view kind = {};  // "kernel", "scope", "metric", "launch", "flow" or "other"
  std::string_view name = {};
  std::optional<int64_t> frame_id = std::nullopt;  // its call path in frames, when known
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  std::optional<int64_t> device = std::nullopt;
  std::optional<int64_t> stream = std::nullopt;
  std::optional<int64_t> thread = std::nullopt;
  std::optional<std::string_view> lane = std::nullopt;
  std::optional<int64_t> correlation = std::nullopt;          // the launch->kernel flow id
  std::optional<std::string_view> metrics = std::nullopt;     // a JSON object's text
  std::optional<std::string_view> category = std::nullopt;    // as the file says
  std::optional<std::string_view> lane_kind = std::nullopt;   // cpu_thread, gpu_stream, ...
  std::optional<std::string_view> call_stack = std::nullopt;  // a JSON list's text
};

// Appends events of one file, any number, in batches: memory stays one batch whatever the
// trace's length. The database must outlive the writer.
class EventsWriter {
 public:
  EventsWriter(SqlDatabase& db, int64_t file_id);
  // Copies `event` (its views may end after the call); writes a full batch.
  Status Add(const DbEvent& event);
  // Writes what is left; call once after the last Add.
  Status Finish();
  int64_t written() const { return written_; }

 private:
  // An event whose views point into its own strings (kept, so their capacity is reused).
  struct OwnedEvent {
    DbEvent event;
    std::string kind, name, lane, metrics, category, lane_kind, call_stack;
  };
  Status Flush();

  BatchInsert insert_;
  int64_t file_id_;
  std::vector<OwnedEvent> batch_;
  size_t filled_ = 0;
  int64_t written_ = 0;
};

// Appends `events` of file `file_id` to the events table (event_id numbered by SQLite).
Status WriteEvents(SqlDatabase& db, int64_t file_id, std::span<const DbEvent> events);

}  // namespace proton::viewer
