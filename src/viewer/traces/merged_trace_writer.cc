// See merged_trace_writer.h. Every message is encoded into a scratch string first and then
// appended with its exact length, so lengths are minimal varints (the profiler's writer
// patches reserved four-byte lengths instead; both are valid protobuf).
#include "viewer/traces/merged_trace_writer.h"

#include <time.h>

#include <algorithm>
#include <tuple>

#include "util/proto_wire.h"
#include "viewer/traces/perfetto_fields.h"

namespace proton::viewer::traces {
namespace {

constexpr size_t kFlushAt = size_t{1} << 20;
constexpr uint32_t kSnapshotSequence = 1;  // inputs take 2, 3, ...

// next_iid_'s slot of an InternedData field.
size_t Slot(uint32_t field) {
  switch (field) {
    case pf::interned::kEventCategories: return 0;
    case pf::interned::kEventNames: return 1;
    case pf::interned::kDebugAnnotationNames: return 2;
    default: return 3;
  }
}

int KindRank(TrackKind kind) {
  switch (kind) {
    case TrackKind::kCpuThread: return 0;
    case TrackKind::kGpuStream: return 1;
    case TrackKind::kGraphStream: return 2;
    case TrackKind::kOther: break;
  }
  return 3;
}

uint64_t NowNs(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace

struct MergedTraceWriter::Tables {
  std::vector<uint64_t> names, categories, strings, metric_names, stack_names;
  std::vector<uint64_t> original_dur;  // one entry
  // A call stack's annotations, encoded once: kernels repeat a few hundred stacks. By stack
  // id; kernels' without ROOT and their own name (stack_bytes: whole stacks).
  std::vector<std::string> stack_bytes, kernel_stack_bytes;
};

bool MergedTraceWriter::Flush(bool all) {
  if (failed_) return false;
  if (out_.empty() || (!all && out_.size() < kFlushAt)) return true;
  if (!sink_(out_)) failed_ = true;
  out_.clear();
  return !failed_;
}

void MergedTraceWriter::EmitPacket() {
  proto::AppendBytes(out_, pf::kTracePacket, packet_);
  if (out_.size() >= kFlushAt) Flush(false);
}

void MergedTraceWriter::StartPacket(int64_t timestamp, uint32_t flags) {
  packet_.clear();
  proto::AppendUint(packet_, pf::packet::kTimestamp,
                    static_cast<uint64_t>(std::max<int64_t>(timestamp, 0)));
  proto::AppendUint(packet_, pf::packet::kSequenceId, sequence_);
  proto::AppendUint(packet_, pf::packet::kSequenceFlags, flags);
}

bool MergedTraceWriter::Begin() { return Begin(NowNs(CLOCK_REALTIME), NowNs(CLOCK_BOOTTIME)); }

bool MergedTraceWriter::Begin(uint64_t realtime_ns, uint64_t boottime_ns) {
  std::string snapshot, clock;
  for (const auto& [id, t] : {std::pair{pf::clock::kRealtime, realtime_ns},
                              std::pair{pf::clock::kBoottime, boottime_ns}}) {
    clock.clear();
    proto::AppendUint(clock, pf::clock::kClockId, id);
    proto::AppendUint(clock, pf::clock::kClockTimestamp, t);
    proto::AppendBytes(snapshot, pf::clock::kClocks, clock);
  }
  proto::AppendUint(snapshot, pf::clock::kPrimaryTraceClock, pf::clock::kRealtime);
  packet_.clear();
  proto::AppendBytes(packet_, pf::packet::kClockSnapshot, snapshot);
  proto::AppendUint(packet_, pf::packet::kSequenceId, kSnapshotSequence);
  EmitPacket();
  return Flush(false);
}

void MergedTraceWriter::SequenceStart() {
  packet_.clear();
  proto::AppendUint(packet_, pf::packet::kSequenceId, sequence_);
  proto::AppendUint(
      packet_, pf::packet::kSequenceFlags,
      pf::packet::kSeqIncrementalStateCleared | pf::packet::kSeqNeedsIncrementalState);
  std::string defaults;
  proto::AppendUint(defaults, pf::defaults::kTimestampClockId, pf::clock::kRealtime);
  proto::AppendBytes(packet_, pf::packet::kDefaults, defaults);
  EmitPacket();
}

void MergedTraceWriter::NameLaunches(TraceStore& store, uint64_t first_flow) {
  std::vector<TraceStore::Event>& events = store.events();
  kernel_of_flow_.assign(next_flow_ - first_flow, TraceStore::kNone);
  auto note = [&](const TraceStore::Event& end, uint32_t slice) {
    for (const uint64_t id : store.FlowsIn(end)) {
      if (id != 0) kernel_of_flow_[id - first_flow] = slice;
    }
  };
  for (uint32_t i = 0; i < events.size(); ++i) {
    if (events[i].instant) continue;
    note(events[i], i);
    for (uint32_t p = bindings_.First(i); p < FlowEndBindings::kLast; p = bindings_.Next(p)) {
      note(events[p], i);
    }
  }
  const uint32_t launch = store.InternString("launch");
  for (TraceStore::Event& e : events) {
    if (!e.instant || e.kind != EventKind::kFlow || e.flows_out == 0) continue;
    const uint64_t id = store.FlowsOut(e)[0];
    if (id == 0 || kernel_of_flow_[id - first_flow] == TraceStore::kNone) continue;
    e.name = events[kernel_of_flow_[id - first_flow]].name;
    e.category = launch;
  }
}

// The tracks that hold events, CPU threads first, then GPU streams, graph streams, others.
std::vector<uint32_t> MergedTraceWriter::Lanes(const TraceStore& store) const {
  std::vector<bool> used(store.tracks().size(), false);
  for (const TraceStore::Event& e : store.events()) used[e.track] = true;
  std::vector<uint32_t> lanes;
  for (uint32_t t = 0; t < used.size(); ++t) {
    if (used[t]) lanes.push_back(t);
  }
  const auto& tracks = store.tracks();
  std::stable_sort(lanes.begin(), lanes.end(), [&](uint32_t a, uint32_t b) {
    const TraceStore::StoredTrack& x = tracks[a];
    const TraceStore::StoredTrack& y = tracks[b];
    return std::tuple(KindRank(x.kind), x.device, x.id) <
           std::tuple(KindRank(y.kind), y.device, y.id);
  });
  return lanes;
}

void MergedTraceWriter::Descriptors(const TraceStore& store, const std::vector<uint32_t>& lanes,
                                    uint32_t position, const std::string& process_name,
                                    const std::string& cmdline) {
  std::string track, process;
  proto::AppendInt(process, pf::track::kProcessPid, int64_t{position} + 1);
  proto::AppendBytes(process, pf::track::kProcessCmdline, cmdline);
  proto::AppendBytes(process, pf::track::kProcessName, process_name);
  proto::AppendUint(track, pf::track::kUuid, process_uuid_);
  proto::AppendBytes(track, pf::track::kName, process_name);
  proto::AppendBytes(track, pf::track::kProcess, process);
  proto::AppendUint(track, pf::track::kChildOrdering, pf::track::kChildOrderingExplicit);
  packet_.clear();
  proto::AppendBytes(packet_, pf::packet::kTrackDescriptor, track);
  proto::AppendUint(packet_, pf::packet::kSequenceId, sequence_);
  EmitPacket();
  for (size_t k = 0; k < lanes.size(); ++k) {
    track.clear();
    proto::AppendUint(track, pf::track::kUuid, track_uuid_[lanes[k]]);
    proto::AppendUint(track, pf::track::kParentUuid, process_uuid_);
    proto::AppendBytes(track, pf::track::kName, store.tracks()[lanes[k]].name);
    proto::AppendInt(track, pf::track::kSiblingOrderRank, static_cast<int64_t>(k));
    packet_.clear();
    proto::AppendBytes(packet_, pf::packet::kTrackDescriptor, track);
    proto::AppendUint(packet_, pf::packet::kSequenceId, sequence_);
    EmitPacket();
  }
}

bool MergedTraceWriter::WriteInput(TraceStore& store, uint32_t position,
                                   const std::string& process_name, const std::string& cmdline,
                                   InputCounts& counts) {
  counts = InputCounts();
  sequence_ = position + kSnapshotSequence + 1;
  process_uuid_ = (uint64_t{position} + 1) << 32;
  const uint64_t first_flow = next_flow_;
  counts.flows = RenumberFlows(store, next_flow_, flow_scratch_);
  std::vector<TraceStore::Event>& events = store.events();
  const size_t tracks = store.tracks().size();
  order_.Build(events, tracks);
  bindings_.Bind(order_, tracks, events);
  // Perfetto launch instants carry their kernel's name already (§7.5); Chrome's are all
  // "launch->kernel".
  if (store.info().format == TraceFormat::kChromeJson) NameLaunches(store, first_flow);
  const std::vector<uint32_t> lanes = Lanes(store);
  track_uuid_.assign(tracks, 0);
  for (size_t k = 0; k < lanes.size(); ++k) track_uuid_[lanes[k]] = process_uuid_ + 1 + k;
  SequenceStart();
  Descriptors(store, lanes, position, process_name, cmdline);
  Tables t;
  pending_.clear();
  std::fill(std::begin(next_iid_), std::end(next_iid_), 1);
  for (const uint32_t lane : lanes) {
    SweepTrack(order_.Track(lane), events, [&](const SweepStep& s) {
      if (failed_) return;
      if (s.kind == SweepStep::Kind::kBegin) {
        Slice(store, s.event, s.clamped, t);
        ++counts.events;
        counts.clamped += s.clamped ? 1 : 0;
      } else if (s.kind == SweepStep::Kind::kEnd) {
        End(store, s.event, s.time);
      } else if (!bindings_.IsBound(s.event)) {
        Instant(store, s.event, t);
        ++counts.events;
      }
    });
  }
  return Flush(false);
}

}  // namespace proton::viewer::traces

namespace proton::viewer::traces {

uint64_t MergedTraceWriter::Intern(std::vector<uint64_t>& iids, size_t key, uint32_t field,
                                   std::string_view text) {
  if (key >= iids.size()) iids.resize(key + 1, 0);
  if (iids[key] != 0) return iids[key];
  const uint64_t iid = next_iid_[Slot(field)]++;
  iids[key] = iid;
  pending_.push_back({field, iid, std::string(text)});
  return iid;
}

void MergedTraceWriter::InternedPacket() {
  if (pending_.empty()) return;
  std::string data, entry;
  for (const Pending& p : pending_) {
    entry.clear();
    proto::AppendUint(entry, pf::interned::kIid, p.iid);
    proto::AppendBytes(entry, pf::interned::kName, p.text);
    proto::AppendBytes(data, p.field, entry);
  }
  pending_.clear();
  packet_.clear();
  proto::AppendUint(packet_, pf::packet::kSequenceId, sequence_);
  proto::AppendUint(packet_, pf::packet::kSequenceFlags, pf::packet::kSeqNeedsIncrementalState);
  proto::AppendBytes(packet_, pf::packet::kInternedData, data);
  EmitPacket();
}

// The event's call stack ("call_stack_<i>", interned strings) and metrics ("metric.<name>").
void MergedTraceWriter::Annotations(const TraceStore& store, const TraceStore::Event& e,
                                    Tables& t) {
  const StringTable& strings = store.strings();
  if (e.stack != TraceStore::kNone) {
    // A kernel's stack "ROOT", frames..., its own name is written as the frames between, as the
    // profiler's writer does (formats.md §7.5); any other stack whole.
    std::span<const uint32_t> stack = store.Stack(e.stack);
    const bool trim = e.kind == EventKind::kKernel && stack.size() >= 2 &&
                      strings.Get(stack.front()) == "ROOT" && stack.back() == e.name;
    auto& cache = trim ? t.kernel_stack_bytes : t.stack_bytes;
    if (e.stack >= cache.size()) cache.resize(e.stack + 1);
    std::string& encoded = cache[e.stack];
    if (encoded.empty()) {
      if (trim) stack = stack.subspan(1, stack.size() - 2);
      for (size_t i = 0; i < stack.size(); ++i) {
        annotation_.clear();
        const bool known = i < t.stack_names.size() && t.stack_names[i] != 0;
        const uint64_t name = known ? t.stack_names[i]
                                    : Intern(t.stack_names, i, pf::interned::kDebugAnnotationNames,
                                             "call_stack_" + std::to_string(i));
        proto::AppendUint(annotation_, pf::annotation::kNameIid, name);
        proto::AppendUint(annotation_, pf::annotation::kStringIid,
                          Intern(t.strings, stack[i], pf::interned::kDebugAnnotationStringValues,
                                 strings.Get(stack[i])));
        proto::AppendBytes(encoded, pf::event::kDebugAnnotations, annotation_);
      }
    }
    event_.append(encoded);
  }
  for (const TraceStore::StoredMetric& m : store.Metrics(e)) {
    annotation_.clear();
    const bool known = m.name < t.metric_names.size() && t.metric_names[m.name] != 0;
    const uint64_t name = known
                              ? t.metric_names[m.name]
                              : Intern(t.metric_names, m.name, pf::interned::kDebugAnnotationNames,
                                       "metric." + std::string(strings.Get(m.name)));
    proto::AppendUint(annotation_, pf::annotation::kNameIid, name);
    switch (m.type) {
      case Metric::Type::kInt:
        proto::AppendInt(annotation_, pf::annotation::kInt, m.int_value);
        break;
      case Metric::Type::kUint:
        proto::AppendUint(annotation_, pf::annotation::kUint, m.uint_value);
        break;
      case Metric::Type::kDouble:
        proto::AppendDouble(annotation_, pf::annotation::kDouble, m.double_value);
        break;
      case Metric::Type::kString:
        proto::AppendUint(annotation_, pf::annotation::kStringIid,
                          Intern(t.strings, m.text, pf::interned::kDebugAnnotationStringValues,
                                 strings.Get(m.text)));
        break;
    }
    proto::AppendBytes(event_, pf::event::kDebugAnnotations, annotation_);
  }
}

void MergedTraceWriter::EventBody(const TraceStore& store, const TraceStore::Event& e,
                                  uint32_t type, Tables& t) {
  const StringTable& strings = store.strings();
  event_.clear();
  proto::AppendUint(event_, pf::event::kType, type);
  proto::AppendUint(event_, pf::event::kTrackUuid, track_uuid_[e.track]);
  proto::AppendUint(event_, pf::event::kNameIid,
                    Intern(t.names, e.name, pf::interned::kEventNames, strings.Get(e.name)));
  if (!strings.Get(e.category).empty()) {
    proto::AppendUint(
        event_, pf::event::kCategoryIids,
        Intern(t.categories, e.category, pf::interned::kEventCategories, strings.Get(e.category)));
  }
  Annotations(store, e, t);
  for (const uint64_t id : store.FlowsOut(e)) {
    if (id != 0) proto::AppendUint(event_, pf::event::kFlowIdsOld, id);
  }
  for (const uint64_t id : store.FlowsIn(e)) {
    if (id != 0) proto::AppendUint(event_, pf::event::kTerminatingFlowIdsOld, id);
  }
}

void MergedTraceWriter::Slice(const TraceStore& store, uint32_t event, bool clamped, Tables& t) {
  const std::vector<TraceStore::Event>& events = store.events();
  const TraceStore::Event& e = events[event];
  EventBody(store, e, pf::event::kTypeSliceBegin, t);
  if (clamped) {  // the recorded duration, as the profiler's writer keeps it (§7.4)
    annotation_.clear();
    proto::AppendUint(
        annotation_, pf::annotation::kNameIid,
        Intern(t.original_dur, 0, pf::interned::kDebugAnnotationNames, "original_dur_ns"));
    proto::AppendUint(annotation_, pf::annotation::kUint,
                      static_cast<uint64_t>(e.end_ns - e.start_ns));
    proto::AppendBytes(event_, pf::event::kDebugAnnotations, annotation_);
  }
  for (uint32_t p = bindings_.First(event); p < FlowEndBindings::kLast; p = bindings_.Next(p)) {
    for (const uint64_t id : store.FlowsIn(events[p])) {
      if (id != 0) proto::AppendUint(event_, pf::event::kTerminatingFlowIdsOld, id);
    }
  }
  InternedPacket();
  StartPacket(e.start_ns, pf::packet::kSeqNeedsIncrementalState);
  proto::AppendBytes(packet_, pf::packet::kTrackEvent, event_);
  EmitPacket();
}

void MergedTraceWriter::Instant(const TraceStore& store, uint32_t event, Tables& t) {
  const TraceStore::Event& e = store.events()[event];
  EventBody(store, e, pf::event::kTypeInstant, t);
  InternedPacket();
  StartPacket(e.start_ns, pf::packet::kSeqNeedsIncrementalState);
  proto::AppendBytes(packet_, pf::packet::kTrackEvent, event_);
  EmitPacket();
}

void MergedTraceWriter::End(const TraceStore& store, uint32_t event, int64_t time) {
  event_.clear();
  proto::AppendUint(event_, pf::event::kType, pf::event::kTypeSliceEnd);
  proto::AppendUint(event_, pf::event::kTrackUuid, track_uuid_[store.events()[event].track]);
  StartPacket(time, pf::packet::kSeqNeedsIncrementalState);
  proto::AppendBytes(packet_, pf::packet::kTrackEvent, event_);
  EmitPacket();
}

}  // namespace proton::viewer::traces
