// See events_writer.h.
#include "viewer/sql/events_writer.h"

namespace proton::viewer {
namespace {

// events without event_id (numbered by SQLite) and duration_ns (generated).
constexpr int kEventColumns = 16;
constexpr const char* kEventsTable =
    "events (file_id, kind, name, frame_id, start_ns, end_ns, device, stream, thread, lane, "
    "correlation, metrics, category, lane_kind, call_stack, event_id)";
// Events copied before they are inserted: enough rows for SQLite's 64-row statements to run
// full, few enough that the copies stay in cache.
constexpr size_t kBatchEvents = 1024;

void BindOptional(SqlStatement& s, int index, const std::optional<int64_t>& v) {
  if (v) s.BindInt(index, *v);
}
void BindOptional(SqlStatement& s, int index, const std::optional<std::string_view>& v) {
  if (v) s.BindText(index, *v);
}

std::string_view Keep(std::string& into, std::string_view text) {
  into.assign(text);
  return into;
}
std::optional<std::string_view> Keep(std::string& into, std::optional<std::string_view> text) {
  if (!text) return std::nullopt;
  return Keep(into, *text);
}

}  // namespace

EventsWriter::EventsWriter(SqlDatabase& db, int64_t file_id)
    : insert_(db, kEventsTable, kEventColumns), file_id_(file_id), batch_(kBatchEvents) {}

Status EventsWriter::Add(const DbEvent& event) {
  OwnedEvent& o = batch_[filled_++];
  o.event = event;
  o.event.kind = Keep(o.kind, event.kind);
  o.event.name = Keep(o.name, event.name);
  o.event.lane = Keep(o.lane, event.lane);
  o.event.metrics = Keep(o.metrics, event.metrics);
  o.event.category = Keep(o.category, event.category);
  o.event.lane_kind = Keep(o.lane_kind, event.lane_kind);
  o.event.call_stack = Keep(o.call_stack, event.call_stack);
  return filled_ == batch_.size() ? Flush() : Status();
}

Status EventsWriter::Finish() { return Flush(); }

Status EventsWriter::Flush() {
  if (filled_ == 0) return Status();
  PROTON_RETURN_IF_ERROR(insert_.Start(filled_));
  for (size_t i = 0; i < filled_; ++i) {
    const DbEvent& e = batch_[i].event;
    PROTON_RETURN_IF_ERROR(insert_.Add([&](SqlStatement& s, int first) {
      s.BindInt(first, file_id_);
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
      BindOptional(s, first + 12, e.category);
      BindOptional(s, first + 13, e.lane_kind);
      BindOptional(s, first + 14, e.call_stack);
      // first + 15, event_id: NULL, so SQLite numbers it (INTEGER PRIMARY KEY).
    }));
  }
  written_ += static_cast<int64_t>(filled_);
  filled_ = 0;
  return Status();
}

Status WriteEvents(SqlDatabase& db, int64_t file_id, std::span<const DbEvent> events) {
  EventsWriter writer(db, file_id);
  for (const DbEvent& e : events) PROTON_RETURN_IF_ERROR(writer.Add(e));
  return writer.Finish();
}

}  // namespace proton::viewer
