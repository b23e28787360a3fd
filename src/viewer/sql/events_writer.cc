// See events_writer.h.
#include "viewer/sql/events_writer.h"

#include "viewer/sql/batch_insert.h"

namespace proton::viewer {
namespace {

// events without event_id (numbered by SQLite) and duration_ns (generated).
constexpr int kEventColumns = 13;

void BindOptional(SqlStatement& s, int index, const std::optional<int64_t>& v) {
  if (v) s.BindInt(index, *v);
}
void BindOptional(SqlStatement& s, int index, const std::optional<std::string_view>& v) {
  if (v) s.BindText(index, *v);
}

}  // namespace

Status WriteEvents(SqlDatabase& db, int64_t file_id, std::span<const DbEvent> events) {
  BatchInsert insert(db,
                     "events (file_id, kind, name, frame_id, start_ns, end_ns, device, stream, "
                     "thread, lane, correlation, metrics, event_id)",
                     kEventColumns);
  PROTON_RETURN_IF_ERROR(insert.Start(events.size()));
  for (const DbEvent& e : events) {
    PROTON_RETURN_IF_ERROR(insert.Add([&](SqlStatement& s, int first) {
      s.BindInt(first, file_id);
      s.BindText(first + 1, e.kind);
      s.BindText(first + 2, e.name);
      BindOptional(s, first + 3, e.frame_id);
      s.BindInt(first + 4, e.start_ns);
      s.BindInt(first + 5, e.end_ns);
      BindOptional(s, first + 6, e.device);
      BindOptional(s, first + 7, e.stream);
      BindOptional(s, first + 8, e.thread);
      BindOptional(s, first + 9, e.lane);
      BindOptional(s, first + 10, e.correlation);
      BindOptional(s, first + 11, e.metrics);
      // first + 12, event_id: NULL, so SQLite numbers it (INTEGER PRIMARY KEY).
    }));
  }
  return Status();
}

}  // namespace proton::viewer
