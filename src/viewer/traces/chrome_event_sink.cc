// See chrome_event_sink.h.
#include "viewer/traces/chrome_event_sink.h"

#include <charconv>

#include "viewer/traces/json_scan.h"

namespace proton::viewer::traces {
namespace {

// An integer field ("pid", "tid"); absent is 0 (Triton 3.6 writes no pid).
bool IntegerOf(std::string_view token, int64_t& out) {
  out = 0;
  return token.empty() || TokenToInt64(token, out);
}

// a == b without a memcmp call for the short tokens (pid and tid are a few digits).
bool SameText(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// A string flow id: hexadecimal "0x..." as Chrome writes them, else a 64-bit FNV-1a hash.
uint64_t StringFlowId(std::string_view text) {
  uint64_t value = 0;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    const auto [end, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), value, 16);
    if (ec == std::errc() && end == text.data() + text.size()) return value;
  }
  value = 0xcbf29ce484222325ull;
  for (const char c : text) value = (value ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return value;
}

}  // namespace

void ChromeEventSink::SetBaseTime(int64_t base) {
  if (began_) {  // the events read so far were relative: all stay so, and the end says why
    if (!info_.absolute_time) summary_.late_base_ns = base;
    return;
  }
  info_.base_ns = base;
  info_.absolute_time = true;
}

bool ChromeEventSink::Check(const Status& status) {
  if (status.ok()) return true;
  status_ = status;
  return false;
}

bool ChromeEventSink::Fail(const std::string& what) {
  status_ = Status::Error("cannot read '" + name_ + "': " + what + " (event " +
                          std::to_string(count_) + ")");
  return false;
}

bool ChromeEventSink::Begin() {
  if (began_) return true;
  began_ = true;
  info_.format = TraceFormat::kChromeJson;
  return Check(visitor_.OnBegin(info_));
}

bool ChromeEventSink::Take(const JsonEvent& e) {
  ++count_;
  if (e.ph.size() != 1) {
    if (e.ph.empty() && e.tree_node) {
      status_ = Status::Error("'" + name_ + "' is a Proton tree profile, not a trace");
      return false;
    }
    ++summary_.unsupported;
    return true;
  }
  const char phase = e.ph[0];
  switch (phase) {
    case 'M': return Metadata(e);
    case 'X':
    case 'i':
    case 'I':
    case 's':
    case 'f': return Emit(e, phase);
    default: ++summary_.unsupported; return true;
  }
}

bool ChromeEventSink::Metadata(const JsonEvent& e) {
  if (e.name == "process_name") {
    if (!began_) info_.process_name.assign(e.args_name);
    return true;
  }
  if (e.name != "thread_name") return true;
  int64_t pid = 0, tid = 0;
  if (!IntegerOf(e.pid, pid) || !IntegerOf(e.tid, tid)) return Fail("pid or tid is not an integer");
  if (!Begin()) return false;
  bool created = false;
  const uint32_t lane = lanes_.Name(pid, tid, e.args_name, created);
  return Check(visitor_.OnTrack(lanes_.TrackOf(lane)));
}

bool ChromeEventSink::Lane(const JsonEvent& e, EventKind kind, uint32_t& track) {
  // Events come lane by lane: the last lane's pid and tid texts are converted once.
  if (!last_ids_valid_ || !SameText(e.pid, last_pid_text_) || !SameText(e.tid, last_tid_text_)) {
    last_ids_valid_ = IntegerOf(e.pid, last_pid_) && IntegerOf(e.tid, last_tid_);
    if (!last_ids_valid_) return Fail("pid or tid is not an integer");
    last_pid_text_.assign(e.pid.data(), e.pid.size());
    last_tid_text_.assign(e.tid.data(), e.tid.size());
  }
  const int64_t pid = last_pid_, tid = last_tid_;
  if (!Begin()) return false;
  bool created = false;
  track = lanes_.Find(pid, tid, kind, created);
  return !created || Check(visitor_.OnTrack(lanes_.TrackOf(track)));
}

bool ChromeEventSink::Times(const JsonEvent& e, TraceEvent& out) {
  int64_t ts = 0, dur = 0;
  if (e.ts.empty()) return Fail("an event without \"ts\"");
  if (!MicrosecondsToNanoseconds(e.ts, ts)) return Fail("\"ts\" out of range");
  if (!out.instant && !e.dur.empty() && !MicrosecondsToNanoseconds(e.dur, dur)) {
    return Fail("\"dur\" out of range");
  }
  if (__builtin_add_overflow(info_.base_ns, ts, &out.start_ns) ||
      __builtin_add_overflow(out.start_ns, dur < 0 ? 0 : dur, &out.end_ns)) {
    return Fail("time out of range");
  }
  return true;
}

bool ChromeEventSink::FlowId(const JsonEvent& e, uint64_t& id) {
  if (e.id.empty()) return Fail("a flow event without \"id\"");
  if (e.id_is_string) {
    id = StringFlowId(e.id);
    return true;
  }
  int64_t signed_id = 0;
  if (TokenToUint64(e.id, id)) return true;
  if (!TokenToInt64(e.id, signed_id)) return Fail("\"id\" is not an integer");
  id = static_cast<uint64_t>(signed_id);
  return true;
}

bool ChromeEventSink::Emit(const JsonEvent& e, char phase) {
  const bool flow = phase == 's' || phase == 'f';
  TraceEvent out;
  out.kind = flow ? EventKind::kFlow : EventKindOfCategory(e.cat);
  out.instant = phase != 'X';
  if (!Times(e, out) || !Lane(e, out.kind, out.track)) return false;
  out.name = e.name;
  out.category = e.cat;
  out.call_stack = e.call_stack;
  out.metrics = e.metrics;
  if (flow) {
    if (!FlowId(e, flow_)) return false;
    (phase == 's' ? out.flows_out : out.flows_in) = std::span<const uint64_t>(&flow_, 1);
  }
  ++summary_.events;
  return Check(visitor_.OnEvent(out));
}

Status ChromeEventSink::Finish() {
  if (!Begin()) return status_;
  return visitor_.OnEnd(summary_);
}

}  // namespace proton::viewer::traces
