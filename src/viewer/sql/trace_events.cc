// See trace_events.h.
#include "viewer/sql/trace_events.h"

#include <cmath>
#include <optional>
#include <vector>

#include "format/profile_reader.h"
#include "viewer/common/json_text.h"
#include "viewer/merge/file_name_facts.h"
#include "viewer/sql/events_writer.h"
#include "viewer/traces/trace_reader.h"

namespace proton::viewer {
namespace {

using traces::TraceEvent;
using traces::TrackKind;

constexpr std::string_view kStopped = "(stopped at the first event)";

// Reads a trace only until its first track or event: enough to know that it is one.
class FirstEventProbe : public traces::TraceVisitor {
 public:
  Status OnBegin(const traces::TraceInfo&) override { return Status(); }
  Status OnTrack(const traces::Track&) override { return Status::Error(std::string(kStopped)); }
  Status OnEvent(const TraceEvent&) override { return Status::Error(std::string(kStopped)); }
  Status OnEnd(const traces::TraceSummary&) override { return Status(); }
};

void AppendMetricValue(std::string& out, const traces::Metric& m) {
  switch (m.type) {
    case traces::Metric::Type::kInt: out += std::to_string(m.int_value); return;
    case traces::Metric::Type::kUint: out += std::to_string(m.uint_value); return;
    case traces::Metric::Type::kDouble:
      if (std::isfinite(m.double_value))
        AppendShortest(out, m.double_value);
      else
        out += "null";
      return;
    case traces::Metric::Type::kString: AppendJsonString(out, m.text); return;
  }
}

// {"name":value,...}, or nullopt for an event without metrics.
std::optional<std::string_view> MetricsJson(std::string& out, const TraceEvent& e) {
  if (e.metrics.empty()) return std::nullopt;
  out.clear();
  out += '{';
  for (const traces::Metric& m : e.metrics) {
    if (out.size() > 1) out += ',';
    AppendJsonString(out, m.name);
    out += ':';
    AppendMetricValue(out, m);
  }
  out += '}';
  return out;
}

std::optional<std::string_view> StackJson(std::string& out, const TraceEvent& e) {
  if (e.call_stack.empty()) return std::nullopt;
  out.clear();
  out += '[';
  for (const std::string_view name : e.call_stack) {
    if (out.size() > 1) out += ',';
    AppendJsonString(out, name);
  }
  out += ']';
  return out;
}

// A launch starts a flow; a Chrome trace's flow end point ("f") is a row of kind flow.
std::string_view KindOf(const TraceEvent& e) {
  if (e.kind == traces::EventKind::kFlow) return e.flows_out.empty() ? "flow" : "launch";
  return traces::EventKindName(e.kind);
}

std::optional<int64_t> Known(int64_t v) {
  return v == traces::kUnknown ? std::nullopt : std::optional<int64_t>(v);
}

// Each event as one row, its lane's facts from the tracks announced before it.
class EventRows : public traces::TraceVisitor {
 public:
  EventRows(SqlDatabase& db, int64_t file_id) : db_(db), file_id_(file_id), writer_(db, file_id) {}

  Status OnBegin(const traces::TraceInfo& info) override {
    info_ = info;
    return Status();
  }
  Status OnTrack(const traces::Track& track) override {
    if (track.index >= lanes_.size()) lanes_.resize(track.index + 1);
    lanes_[track.index] = {std::string(track.name), track.kind, track.id, track.device};
    return Status();
  }
  Status OnEvent(const TraceEvent& e) override;
  Status OnEnd(const traces::TraceSummary& summary) override;

  bool absolute_time() const { return info_.absolute_time; }
  traces::TraceFormat format() const { return info_.format; }
  int64_t events() const { return writer_.written(); }

 private:
  struct Lane {
    std::string name;
    TrackKind kind = TrackKind::kOther;
    int64_t id = traces::kUnknown;
    int64_t device = traces::kUnknown;
  };

  SqlDatabase& db_;
  int64_t file_id_;
  EventsWriter writer_;
  traces::TraceInfo info_;
  std::vector<Lane> lanes_;
  std::string metrics_;  // the current event's texts, reused
  std::string stack_;
};

Status EventRows::OnEvent(const TraceEvent& e) {
  static const Lane kNoLane;
  const Lane& lane = e.track < lanes_.size() ? lanes_[e.track] : kNoLane;
  const bool cpu = lane.kind == TrackKind::kCpuThread;
  const bool gpu = lane.kind == TrackKind::kGpuStream || lane.kind == TrackKind::kGraphStream;
  DbEvent row{.kind = KindOf(e), .name = e.name, .start_ns = e.start_ns, .end_ns = e.end_ns};
  row.device = Known(lane.device);
  if (gpu) row.stream = Known(lane.id);
  if (cpu) row.thread = Known(lane.id);
  if (!lane.name.empty()) row.lane = lane.name;
  if (!e.flows_out.empty()) {
    row.correlation = static_cast<int64_t>(e.flows_out.front());
  } else if (!e.flows_in.empty()) {
    row.correlation = static_cast<int64_t>(e.flows_in.front());
  }
  row.metrics = MetricsJson(metrics_, e);
  if (!e.category.empty()) row.category = e.category;
  row.lane_kind = traces::TrackKindName(lane.kind);
  row.call_stack = StackJson(stack_, e);
  return writer_.Add(row);
}

Status EventRows::OnEnd(const traces::TraceSummary& summary) {
  PROTON_RETURN_IF_ERROR(writer_.Finish());
  if (!summary.late_base_ns) return Status();
  // A Chrome trace's baseTimeNanoseconds after its events: its rows are made absolute now.
  info_.absolute_time = true;
  PROTON_ASSIGN_OR_RETURN(SqlStatement shift,
                          db_.Prepare("UPDATE events SET start_ns = start_ns + ?1, "
                                      "end_ns = end_ns + ?1 WHERE file_id = ?2"));
  shift.BindInt(1, *summary.late_base_ns);
  shift.BindInt(2, file_id_);
  return shift.Run();
}

}  // namespace

bool IsTraceFile(const std::string& path) {
  const std::optional<traces::TraceFileKind> kind = traces::SniffTraceFile(path);
  if (!kind) return false;
  if (*kind == traces::TraceFileKind::kPerfetto) return true;
  if (*kind != traces::TraceFileKind::kChromeJson) return false;
  // JSON text may be a tree profile, which the trace reader refuses at its start.
  FirstEventProbe probe;
  const Status s = traces::ReadTraceFile(path, probe);
  return s.ok() || s.message() == kStopped;
}

Status WriteTraceFile(SqlDatabase& db, int64_t file_id, const std::string& path) {
  EventRows rows(db, file_id);
  PROTON_RETURN_IF_ERROR(traces::ReadTraceFile(path, rows));
  PROTON_ASSIGN_OR_RETURN(SqlStatement insert,
                          db.Prepare("INSERT INTO files VALUES (?,?,?,?,?,NULL,0,?,?,?)"));
  const std::string name = format::DisplayName(path);
  const FileNameFacts facts = ParseFileName(name);
  const auto bind = [&](int index, const std::optional<int64_t>& v) {
    if (v) insert.BindInt(index, *v);
  };
  insert.BindInt(1, file_id);
  insert.BindText(2, name);
  bind(3, facts.rank);
  bind(4, facts.phase);
  bind(5, facts.pid);
  insert.BindText(
      6, rows.format() == traces::TraceFormat::kChromeJson ? "chrome_trace" : "perfetto_trace");
  insert.BindInt(7, rows.events());
  insert.BindInt(8, rows.absolute_time() ? 1 : 0);
  return insert.Run();
}

}  // namespace proton::viewer
