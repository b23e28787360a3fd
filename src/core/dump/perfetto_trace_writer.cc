// .perfetto_trace writer; see perfetto_trace_writer.h. Field numbers: util/perfetto_fields.h.
#include "core/dump/perfetto_trace_writer.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <unordered_map>

#include "core/dump/perfetto_interning.h"
#include "core/dump/perfetto_lanes.h"
#include "core/dump/track_sweep.h"
#include "util/perfetto_fields.h"
#include "util/proto_wire.h"

namespace proton {
namespace {

namespace pf = perfetto;
using proto::AppendBytes;
using proto::AppendUint;

constexpr std::string_view kProcessName = "Trace";  // as .chrome_trace's process_name

uint64_t ClockNs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// The value fields of a metric's DebugAnnotation; a vector is array_values, one element each.
void AppendMetricValue(std::string& annotation, const MetricValue& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) {
    return proto::AppendInt(annotation, pf::kAnnotationIntValue, *i);
  }
  if (const auto* d = std::get_if<double>(&value)) {
    return proto::AppendDouble(annotation, pf::kAnnotationDoubleValue, *d);
  }
  std::string element;
  if (const auto* v = std::get_if<std::vector<int64_t>>(&value)) {
    for (int64_t x : *v) {
      element.clear();
      proto::AppendInt(element, pf::kAnnotationIntValue, x);
      AppendBytes(annotation, pf::kAnnotationArrayValues, element);
    }
  } else if (const auto* w = std::get_if<std::vector<double>>(&value)) {
    for (double x : *w) {
      element.clear();
      proto::AppendDouble(element, pf::kAnnotationDoubleValue, x);
      AppendBytes(annotation, pf::kAnnotationArrayValues, element);
    }
  }
}

// A DebugAnnotation {name_iid, <value_field> = value} as a TrackEvent field.
void AppendAnnotation(std::string& event, uint64_t name_iid, uint32_t value_field, uint64_t value) {
  std::string annotation;
  AppendUint(annotation, pf::kAnnotationNameIid, name_iid);
  AppendUint(annotation, value_field, value);
  AppendBytes(event, pf::kEventDebugAnnotations, annotation);
}

// What every SLICE_BEGIN of a kernel node carries (name, category, call stack, metrics), and
// its name's iid for the launch instants: built once per node.
struct NodeTail {
  std::string bytes;
  uint64_t name_iid = 0;
};

class PerfettoWriter {
 public:
  PerfettoWriter(const TraceData& data, std::string& out, const ChunkSink* chunk_sink,
                 const PerfettoTraceOptions& options);
  PerfettoTraceStats Write();

  // The track sweep's visitor (track_sweep.h).
  void Begin(const TrackItem& item, bool clamped);
  void End(uint64_t ts);
  void Instant(const TrackItem& item);
  bool Stopped() const { return stopped_; }

 private:
  void CollectItems();
  void WriteClockSnapshot();
  void WriteSequenceStart();
  void WriteTracks();
  void WriteDescriptor(const std::string& track);
  void StartEvent(uint64_t type);
  void WriteEventPacket(uint64_t ts);
  void WriteInternedIfPending();
  void WritePacket(uint64_t flags);
  const NodeTail& KernelTail(uint32_t node);
  uint64_t FrameIid(uint32_t node);
  uint64_t CallStackNameIid(size_t depth);
  uint64_t MetricNameIid(const std::string& metric);
  void AppendMetricAnnotations(std::string& event, const std::vector<FlexMetric>& metrics);

  const TraceData& data_;
  const ContextTree& tree_;
  const std::vector<TraceEvent>& events_;
  const std::vector<ScopeEvent>& scopes_;
  std::string& out_;
  WriteOptions options_;
  PerfettoTraceOptions trace_options_;
  PerfettoLanes lanes_;
  std::vector<TrackItem> items_;
  uint64_t last_ns_ = 0;  // the trace's latest timestamp: where still-open scopes end
  uint64_t lane_uuid_ = 0;
  std::string event_;   // the TrackEvent being built
  std::string packet_;  // the TracePacket being built
  InternTable names_;
  InternTable annotation_names_;
  InternTable strings_;
  std::vector<int32_t> tail_of_node_;  // index into tails_, -1: not built
  std::deque<NodeTail> tails_;
  std::vector<uint64_t> frame_iid_;  // per node; 0: not interned yet
  std::vector<uint64_t> call_stack_iids_;
  std::unordered_map<std::string_view, uint64_t> metric_iids_;  // keys: the data's names
  uint64_t original_dur_iid_ = 0;
  PerfettoTraceStats stats_;
  bool stopped_ = false;  // the sink refused a chunk
};

PerfettoWriter::PerfettoWriter(const TraceData& data, std::string& out, const ChunkSink* chunk_sink,
                               const PerfettoTraceOptions& options)
    : data_(data),
      tree_(data.tree()),
      events_(data.events()),
      scopes_(data.scope_events()),
      out_(out),
      trace_options_(options) {
  options_.chunk_sink = chunk_sink;
  if (trace_options_.pid == 0) trace_options_.pid = getpid();
  if (trace_options_.realtime_ns == 0 && trace_options_.boottime_ns == 0) {
    trace_options_.realtime_ns = ClockNs(CLOCK_REALTIME);
    trace_options_.boottime_ns = ClockNs(CLOCK_BOOTTIME);
  }
}

// One item per kernel, launch and scope, with its lane; lanes ordered, items sorted by lane.
void PerfettoWriter::CollectItems() {
  items_.reserve(events_.size() + scopes_.size());
  auto see = [&](uint64_t ns) { last_ns_ = std::max(last_ns_, ns); };
  for (uint32_t i = 0; i < events_.size(); ++i) {
    const TraceEvent& e = events_[i];
    LaneKind kind = e.graph_id != 0 ? LaneKind::kGraph : LaneKind::kGpu;
    uint32_t lane = lanes_.Add(LaneKey{kind, e.device_id, e.stream_id});
    uint64_t end = std::max(e.end_ns, e.start_ns);
    items_.push_back(TrackItem{e.start_ns, end, i, lane, TrackItemKind::kKernel});
    see(end);
    if (e.launch_ns == 0) continue;
    lane = lanes_.Add(LaneKey{LaneKind::kCpu, 0, e.launch_thread});
    items_.push_back(TrackItem{e.launch_ns, e.launch_ns, i, lane, TrackItemKind::kLaunch});
    see(e.launch_ns);
  }
  for (const ScopeEvent& s : scopes_) see(s.open ? s.start_ns : std::max(s.start_ns, s.end_ns));
  for (uint32_t i = 0; i < scopes_.size(); ++i) {
    const ScopeEvent& s = scopes_[i];
    uint32_t lane = lanes_.Add(LaneKey{LaneKind::kCpu, 0, s.thread});
    uint64_t end = std::max(s.open ? last_ns_ : s.end_ns, s.start_ns);
    items_.push_back(TrackItem{s.start_ns, end, i, lane, TrackItemKind::kScope});
  }
  lanes_.Finish();
  for (TrackItem& item : items_) item.lane = lanes_.Final(item.lane);
}

void PerfettoWriter::WritePacket(uint64_t flags) {
  if (flags != 0) AppendUint(packet_, pf::kPacketSequenceFlags, flags);
  AppendUint(packet_, pf::kPacketSequenceId, pf::kSequenceId);
  AppendBytes(out_, pf::kTracePacket, packet_);
  packet_.clear();
  ++stats_.packets;
  stopped_ = stopped_ || !MaybeFlushChunk(options_, out_);
}

void PerfettoWriter::WriteClockSnapshot() {
  std::string snapshot;
  std::string clock;
  const std::pair<uint64_t, uint64_t> clocks[] = {{pf::kClockRealtime, trace_options_.realtime_ns},
                                                  {pf::kClockBoottime, trace_options_.boottime_ns}};
  for (const auto& [id, ns] : clocks) {
    clock.clear();
    AppendUint(clock, pf::kClockId, id);
    AppendUint(clock, pf::kClockTimestamp, ns);
    AppendBytes(snapshot, pf::kSnapshotClocks, clock);
  }
  AppendUint(snapshot, pf::kSnapshotPrimaryTraceClock, pf::kClockRealtime);
  AppendBytes(packet_, pf::kPacketClockSnapshot, snapshot);
  WritePacket(0);
}

// Clears the sequence's incremental state, makes REALTIME its packets' clock and interns the
// three event categories (iids 1, 2, 3 = kCategoryScope, kCategoryKernel, kCategoryLaunch).
void PerfettoWriter::WriteSequenceStart() {
  std::string defaults;
  AppendUint(defaults, pf::kDefaultsTimestampClockId, pf::kClockRealtime);
  AppendBytes(packet_, pf::kPacketDefaults, defaults);
  InternTable categories;
  for (std::string_view name : {"scope", "kernel", "launch"}) categories.Intern(name);
  std::string interned;
  categories.WritePending(interned, pf::kInternedEventCategories);
  AppendBytes(packet_, pf::kPacketInternedData, interned);
  WritePacket(pf::kSeqIncrementalStateCleared | pf::kSeqNeedsIncrementalState);
}

void PerfettoWriter::WriteDescriptor(const std::string& track) {
  AppendBytes(packet_, pf::kPacketTrackDescriptor, track);
  WritePacket(0);
}

void PerfettoWriter::WriteTracks() {
  std::string process;
  proto::AppendInt(process, pf::kProcessPid, trace_options_.pid);
  AppendBytes(process, pf::kProcessName, kProcessName);
  std::string track;
  AppendUint(track, pf::kTrackUuid, pf::kProcessTrackUuid);
  AppendBytes(track, pf::kTrackName, kProcessName);
  AppendBytes(track, pf::kTrackProcess, process);
  AppendUint(track, pf::kTrackChildOrdering, pf::kChildOrderingExplicit);
  WriteDescriptor(track);
  for (uint32_t k = 0; k < lanes_.size() && !stopped_; ++k) {
    track.clear();
    AppendUint(track, pf::kTrackUuid, pf::kFirstLaneUuid + k);
    AppendUint(track, pf::kTrackParentUuid, pf::kProcessTrackUuid);
    AppendBytes(track, pf::kTrackName, lanes_.Name(k));
    AppendUint(track, pf::kTrackSiblingOrderRank, k);
    WriteDescriptor(track);
  }
}

void PerfettoWriter::StartEvent(uint64_t type) {
  event_.clear();
  AppendUint(event_, pf::kEventType, type);
  AppendUint(event_, pf::kEventTrackUuid, lane_uuid_);
}

// The event in event_ as one packet at `ts`, after the interned entries it introduced.
void PerfettoWriter::WriteEventPacket(uint64_t ts) {
  WriteInternedIfPending();
  AppendUint(packet_, pf::kPacketTimestamp, ts);
  AppendBytes(packet_, pf::kPacketTrackEvent, event_);
  WritePacket(pf::kSeqNeedsIncrementalState);
}

void PerfettoWriter::WriteInternedIfPending() {
  if (!names_.has_pending() && !annotation_names_.has_pending() && !strings_.has_pending()) {
    return;
  }
  std::string interned;
  names_.WritePending(interned, pf::kInternedEventNames);
  annotation_names_.WritePending(interned, pf::kInternedAnnotationNames);
  strings_.WritePending(interned, pf::kInternedAnnotationStrings);
  AppendBytes(packet_, pf::kPacketInternedData, interned);
  WritePacket(pf::kSeqNeedsIncrementalState);
}

uint64_t PerfettoWriter::FrameIid(uint32_t node) {
  uint64_t& iid = frame_iid_[node];
  if (iid == 0) iid = strings_.Intern(tree_.name(node));
  return iid;
}

uint64_t PerfettoWriter::CallStackNameIid(size_t depth) {
  while (call_stack_iids_.size() <= depth) {
    call_stack_iids_.push_back(
        annotation_names_.Intern("call_stack_" + std::to_string(call_stack_iids_.size())));
  }
  return call_stack_iids_[depth];
}

uint64_t PerfettoWriter::MetricNameIid(const std::string& metric) {
  auto it = metric_iids_.find(metric);
  if (it != metric_iids_.end()) return it->second;
  uint64_t iid = annotation_names_.Intern("metric." + metric);
  metric_iids_.emplace(metric, iid);
  return iid;
}

// metric.<name> annotations in byte order of name (as .chrome_trace's args.metrics).
void PerfettoWriter::AppendMetricAnnotations(std::string& event,
                                             const std::vector<FlexMetric>& metrics) {
  std::vector<const FlexMetric*> sorted;
  sorted.reserve(metrics.size());
  for (const FlexMetric& m : metrics) sorted.push_back(&m);
  std::sort(sorted.begin(), sorted.end(),
            [](const FlexMetric* a, const FlexMetric* b) { return a->name < b->name; });
  std::string annotation;
  for (const FlexMetric* m : sorted) {
    annotation.clear();
    AppendUint(annotation, pf::kAnnotationNameIid, MetricNameIid(m->name));
    AppendMetricValue(annotation, m->value);
    AppendBytes(event, pf::kEventDebugAnnotations, annotation);
  }
}

const NodeTail& PerfettoWriter::KernelTail(uint32_t node) {
  int32_t& slot = tail_of_node_[node];
  if (slot >= 0) return tails_[static_cast<size_t>(slot)];
  NodeTail tail;
  tail.name_iid = names_.Intern(tree_.name(node));
  AppendUint(tail.bytes, pf::kEventNameIid, tail.name_iid);
  AppendUint(tail.bytes, pf::kEventCategoryIids, pf::kCategoryKernel);
  // The frames between ROOT and the kernel, innermost first: ROOT is every stack's first frame
  // and the kernel is the event's name, so neither is repeated (formats.md §7.5).
  std::vector<uint32_t> frames;
  for (uint32_t n = tree_.parent(node); n != kNoNode && n != kRootNode; n = tree_.parent(n)) {
    frames.push_back(n);
  }
  for (size_t depth = 0; depth < frames.size(); ++depth) {
    AppendAnnotation(tail.bytes, CallStackNameIid(depth), pf::kAnnotationStringValueIid,
                     FrameIid(frames[frames.size() - 1 - depth]));
  }
  if (const std::vector<FlexMetric>* metrics = data_.NodeMetrics(node)) {
    AppendMetricAnnotations(tail.bytes, *metrics);
  }
  slot = static_cast<int32_t>(tails_.size());
  tails_.push_back(std::move(tail));
  return tails_.back();
}

void PerfettoWriter::Begin(const TrackItem& item, bool clamped) {
  StartEvent(pf::kTypeSliceBegin);
  if (item.kind == TrackItemKind::kScope) {
    const ScopeEvent& s = scopes_[item.ref];
    AppendUint(event_, pf::kEventNameIid, names_.Intern(s.name));
    AppendUint(event_, pf::kEventCategoryIids, pf::kCategoryScope);
    AppendMetricAnnotations(event_, s.metrics);
  } else {
    const TraceEvent& e = events_[item.ref];
    event_.append(KernelTail(e.node).bytes);
    if (e.launch_ns != 0) AppendUint(event_, pf::kEventTerminatingFlowIds, item.ref + 1ull);
  }
  if (clamped) {
    if (original_dur_iid_ == 0) original_dur_iid_ = annotation_names_.Intern("original_dur_ns");
    AppendAnnotation(event_, original_dur_iid_, pf::kAnnotationUintValue, item.end - item.start);
  }
  WriteEventPacket(item.start);
}

void PerfettoWriter::End(uint64_t ts) {
  StartEvent(pf::kTypeSliceEnd);
  WriteEventPacket(ts);
}

void PerfettoWriter::Instant(const TrackItem& item) {
  StartEvent(pf::kTypeInstant);
  AppendUint(event_, pf::kEventNameIid, KernelTail(events_[item.ref].node).name_iid);
  AppendUint(event_, pf::kEventCategoryIids, pf::kCategoryLaunch);
  AppendUint(event_, pf::kEventFlowIds, item.ref + 1ull);
  WriteEventPacket(item.start);
}

PerfettoTraceStats PerfettoWriter::Write() {
  CollectItems();
  tail_of_node_.assign(tree_.size(), -1);
  frame_iid_.assign(tree_.size(), 0);
  WriteClockSnapshot();
  WriteSequenceStart();
  WriteTracks();
  std::vector<size_t> offsets = SortTrackItems(items_, lanes_.size());
  for (uint32_t lane = 0; lane < lanes_.size() && !stopped_; ++lane) {
    lane_uuid_ = pf::kFirstLaneUuid + lane;
    stats_.clamped_slices +=
        SweepTrack(items_.data() + offsets[lane], items_.data() + offsets[lane + 1], *this);
  }
  if (!stopped_) MaybeFlushChunk(options_, out_, /*force=*/true);
  return stats_;
}

}  // namespace

PerfettoTraceStats WritePerfettoTrace(const TraceData& data, std::string& out,
                                      const ChunkSink* chunk_sink,
                                      const PerfettoTraceOptions& options) {
  return PerfettoWriter(data, out, chunk_sink, options).Write();
}

}  // namespace proton
