// One event model for every trace proton-viewer reads (formats.md §4, §6, §7): Chrome-trace
// JSON (Triton 3.6's layouts, 3.7+'s, ours) and Perfetto protobuf (ours, Triton main's). A
// reader hands the events to a TraceVisitor one at a time, as it reads them, so that a
// consumer decides what to keep: the --export merge keeps one file's events to sort them per
// track, an SQL export would insert one row per event and keep nothing, a report would keep
// per-track sums. Every view (string_view, span) given to a visitor is valid only during the
// call; a visitor copies what it keeps.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "util/status.h"

namespace proton::viewer::traces {

// What an event is, from its category ("kernel", "scope", "metric", "launch" or "flow").
// kFlow is a launch (the start of a launch->kernel flow) or a flow's end point in a Chrome
// trace ("f" events, at the kernel's start on its lane).
enum class EventKind : uint8_t { kKernel, kScope, kMetric, kFlow, kOther };

// What a track (a Chrome lane, a Perfetto track) shows, from its name ("CPU Thread <tid>",
// "GPU Stream <id>", "GPU <device> Stream <id>", "Graph: Stream <id>", ...) or, for a lane
// without a name (Triton 3.6), from its first event (kernels: a GPU stream).
enum class TrackKind : uint8_t { kCpuThread, kGpuStream, kGraphStream, kOther };

inline constexpr int64_t kUnknown = -1;

struct Track {
  uint32_t index = 0;  // the file's tracks are numbered 0, 1, ... in order of first sight
  TrackKind kind = TrackKind::kOther;
  int64_t id = kUnknown;      // the OS thread id, or the stream id
  int64_t device = kUnknown;  // the device, when the name says it
  std::string_view name;      // as shown: the lane's name, or one made from kind and id
};

// A metric of an event (Chrome args.metrics, Perfetto "metric.<name>" and other debug
// annotations): an integer, a double, or text (strings, and vectors as their JSON text).
struct Metric {
  enum class Type : uint8_t { kInt, kUint, kDouble, kString };
  std::string_view name;
  Type type = Type::kInt;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double double_value = 0;
  std::string_view text;
};

struct TraceEvent {
  EventKind kind = EventKind::kOther;
  bool instant = false;  // no duration: a launch, a flow end point, an instant event
  uint32_t track = 0;    // Track::index, announced by OnTrack before the first event on it
  // Nanoseconds: absolute CLOCK_REALTIME when the file's TraceInfo::absolute_time, else
  // from the file's own zero. end_ns >= start_ns (an instant: equal).
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  std::string_view name;
  std::string_view category;
  std::span<const std::string_view> call_stack;  // from "ROOT" down to the event (kernels)
  std::span<const Metric> metrics;
  // Flow ids as the file numbers them: flows this event starts (a launch) and flows that end
  // on it (a kernel; in a Chrome trace the "f" point at its start). A launch's latency is
  // the end's start_ns minus the start's.
  std::span<const uint64_t> flows_out;
  std::span<const uint64_t> flows_in;
};

enum class TraceFormat : uint8_t { kChromeJson, kPerfetto };

struct TraceInfo {
  TraceFormat format = TraceFormat::kChromeJson;
  // Whether event times are absolute CLOCK_REALTIME ns: our files and Triton 3.7+'s JSON
  // with baseTimeNanoseconds, Perfetto files on the REALTIME clock (or BOOTTIME with a clock
  // snapshot that relates the two). Triton 3.6's JSON and main's Perfetto files are relative.
  bool absolute_time = false;
  int64_t base_ns = 0;       // JSON: baseTimeNanoseconds (0 when absent)
  int64_t pid = kUnknown;    // the profiled process, when the file says (Perfetto)
  std::string process_name;  // when the file names its process before its first event
};

// What a reader passed over, reported once at the end.
struct TraceSummary {
  uint64_t events = 0;       // events given to OnEvent
  uint64_t unsupported = 0;  // events of kinds the model has no place for (counters, B/E, ...)
  uint64_t unmatched = 0;    // Perfetto slice ends without a begin, begins never ended
  // A Chrome trace whose baseTimeNanoseconds came after its events: they were given relative
  // (TraceInfo::absolute_time false); a consumer that kept them adds this to make them absolute.
  std::optional<int64_t> late_base_ns;
};

class TraceVisitor {
 public:
  virtual ~TraceVisitor() = default;
  // Once, before any track or event.
  virtual Status OnBegin(const TraceInfo& info) = 0;
  // When a track is first used or named, and again when a later record renames it (a Chrome
  // thread_name after events on the lane): the same index with the new name and kind.
  virtual Status OnTrack(const Track& track) = 0;
  virtual Status OnEvent(const TraceEvent& event) = 0;
  // Once, after the last event (not after an error).
  virtual Status OnEnd(const TraceSummary& summary) = 0;
};

std::string_view EventKindName(EventKind kind);  // "kernel", "scope", "metric", "flow", "other"
std::string_view TrackKindName(TrackKind kind);  // "cpu_thread", "gpu_stream", ...

// The kind named by a category string.
EventKind EventKindOfCategory(std::string_view category);

}  // namespace proton::viewer::traces
