// Test-only .perfetto_trace reader; see perfetto_decode.h.
#include "core/testing/perfetto_decode.h"

#include <set>

#include "util/perfetto_fields.h"
#include "util/proto_wire.h"

namespace proton::test {
namespace {

namespace pf = perfetto;
using proto::Field;
using proto::Reader;

using Index = std::map<uint64_t, std::string>;

class Decoder {
 public:
  DecodedTrace Decode(std::string_view file);

 private:
  void Packet(std::string_view packet);
  void Fail(const std::string& message) {
    if (trace_.error.empty())
      trace_.error = "packet " + std::to_string(trace_.packets) + ": " + message;
  }
  void Interned(std::string_view data);
  void Entries(std::string_view entry, Index& index);
  void ClockSnapshot(std::string_view snapshot);
  void Defaults(std::string_view defaults);
  void TrackDescriptor(std::string_view descriptor);
  void TrackEvent(std::string_view event, uint64_t ts);
  DecodedAnnotation Annotation(std::string_view annotation, bool named);
  std::string Resolve(const Index& index, uint64_t iid, const char* what);

  DecodedTrace trace_;
  bool cleared_ = false;
  Index categories_, names_, annotation_names_, strings_;
  std::set<uint64_t> track_uuids_;
};

std::string Decoder::Resolve(const Index& index, uint64_t iid, const char* what) {
  auto it = index.find(iid);
  if (it != index.end()) return it->second;
  Fail(std::string(what) + " iid " + std::to_string(iid) + " used before it was interned");
  return "";
}

void Decoder::Entries(std::string_view entry, Index& index) {
  Reader r(entry);
  Field f;
  uint64_t iid = 0;
  std::string name;
  while (r.Next(f)) {
    if (f.number == pf::kInternedIid) iid = f.varint;
    if (f.number == pf::kInternedName) name = std::string(f.bytes);
  }
  if (!r.ok() || iid == 0) return Fail("bad interned entry");
  auto [it, inserted] = index.emplace(iid, name);
  if (!inserted && it->second != name) Fail("iid " + std::to_string(iid) + " interned twice");
}

void Decoder::Interned(std::string_view data) {
  Reader r(data);
  Field f;
  while (r.Next(f)) {
    if (f.number == pf::kInternedEventCategories) Entries(f.bytes, categories_);
    if (f.number == pf::kInternedEventNames) Entries(f.bytes, names_);
    if (f.number == pf::kInternedAnnotationNames) Entries(f.bytes, annotation_names_);
    if (f.number == pf::kInternedAnnotationStrings) Entries(f.bytes, strings_);
  }
  if (!r.ok()) Fail("bad interned data");
  for (const auto& [iid, name] : categories_) trace_.category_iids[name] = iid;
}

void Decoder::ClockSnapshot(std::string_view snapshot) {
  Reader r(snapshot);
  Field f;
  while (r.Next(f)) {
    if (f.number == pf::kSnapshotPrimaryTraceClock) trace_.primary_clock = f.varint;
    if (f.number != pf::kSnapshotClocks) continue;
    Reader c(f.bytes);
    Field g;
    uint64_t id = 0;
    uint64_t ns = 0;
    while (c.Next(g)) {
      if (g.number == pf::kClockId) id = g.varint;
      if (g.number == pf::kClockTimestamp) ns = g.varint;
    }
    trace_.clocks[id] = ns;
  }
  if (trace_.packets == 1) trace_.clock_snapshot_first = true;
}

void Decoder::Defaults(std::string_view defaults) {
  Reader r(defaults);
  Field f;
  while (r.Next(f)) {
    if (f.number == pf::kDefaultsTimestampClockId) trace_.default_clock = f.varint;
  }
}

void Decoder::TrackDescriptor(std::string_view descriptor) {
  DecodedTrack track;
  Reader r(descriptor);
  Field f;
  while (r.Next(f)) {
    if (f.number == pf::kTrackUuid) track.uuid = f.varint;
    if (f.number == pf::kTrackParentUuid) track.parent = f.varint;
    if (f.number == pf::kTrackName) track.name = std::string(f.bytes);
    if (f.number == pf::kTrackSiblingOrderRank) track.rank = static_cast<int64_t>(f.varint);
    if (f.number == pf::kTrackChildOrdering) track.child_ordering = f.varint;
    if (f.number != pf::kTrackProcess) continue;
    Reader p(f.bytes);
    Field g;
    while (p.Next(g)) {
      if (g.number == pf::kProcessPid) track.pid = static_cast<int64_t>(g.varint);
      if (g.number == pf::kProcessName) track.process_name = std::string(g.bytes);
    }
  }
  if (track.parent != 0 && track_uuids_.count(track.parent) == 0) Fail("parent track unknown");
  if (!track_uuids_.insert(track.uuid).second) Fail("track uuid declared twice");
  trace_.tracks.push_back(std::move(track));
}

DecodedAnnotation Decoder::Annotation(std::string_view annotation, bool named) {
  DecodedAnnotation a;
  using Kind = DecodedAnnotation::Kind;
  Reader r(annotation);
  Field f;
  while (r.Next(f)) {
    switch (f.number) {
      case pf::kAnnotationNameIid:
        a.name = Resolve(annotation_names_, f.varint, "annotation name");
        break;
      case pf::kAnnotationUintValue: a.kind = Kind::kUint, a.u = f.varint; break;
      case pf::kAnnotationIntValue:
        a.kind = Kind::kInt, a.i = static_cast<int64_t>(f.varint);
        break;
      case pf::kAnnotationDoubleValue: a.kind = Kind::kDouble, a.d = f.as_double(); break;
      case pf::kAnnotationStringValueIid:
        a.kind = Kind::kString, a.s = Resolve(strings_, f.varint, "string value");
        break;
      case pf::kAnnotationArrayValues:
        a.kind = Kind::kArray, a.array.push_back(Annotation(f.bytes, false));
        break;
      default: Fail("unexpected annotation field " + std::to_string(f.number));
    }
  }
  if (!r.ok()) Fail("bad annotation");
  if (named && a.name.empty()) Fail("annotation without a name");
  return a;
}

void Decoder::TrackEvent(std::string_view event, uint64_t ts) {
  DecodedEvent e;
  e.ts = ts;
  Reader r(event);
  Field f;
  while (r.Next(f)) {
    switch (f.number) {
      case pf::kEventType: e.type = f.varint; break;
      case pf::kEventTrackUuid: e.track = f.varint; break;
      case pf::kEventNameIid: e.name = Resolve(names_, f.varint, "event name"); break;
      case pf::kEventCategoryIids:
        e.categories.push_back(Resolve(categories_, f.varint, "category"));
        break;
      case pf::kEventDebugAnnotations: e.annotations.push_back(Annotation(f.bytes, true)); break;
      case pf::kEventFlowIds: e.flow_ids.push_back(f.varint); break;
      case pf::kEventTerminatingFlowIds: e.terminating_flow_ids.push_back(f.varint); break;
      default: Fail("unexpected track event field " + std::to_string(f.number));
    }
  }
  if (!r.ok()) Fail("bad track event");
  if (track_uuids_.count(e.track) == 0) Fail("event on an undeclared track");
  trace_.events.push_back(std::move(e));
}

void Decoder::Packet(std::string_view packet) {
  Reader r(packet);
  Field f;
  uint64_t sequence = 0, flags = 0;
  bool has_ts = false;
  uint64_t ts = 0;
  std::string_view event, interned;
  while (r.Next(f)) {
    switch (f.number) {
      case pf::kPacketTimestamp: has_ts = true, ts = f.varint; break;
      case pf::kPacketSequenceId: sequence = f.varint; break;
      case pf::kPacketSequenceFlags: flags = f.varint; break;
      case pf::kPacketTrackEvent: event = f.bytes; break;
      case pf::kPacketInternedData: interned = f.bytes; break;
      case pf::kPacketClockSnapshot: ClockSnapshot(f.bytes); break;
      case pf::kPacketTrackDescriptor: TrackDescriptor(f.bytes); break;
      case pf::kPacketDefaults: Defaults(f.bytes); break;
      default: Fail("unexpected packet field " + std::to_string(f.number));
    }
  }
  if (!r.ok()) return Fail("bad packet");
  if (sequence != pf::kSequenceId) Fail("packet not on sequence 1");
  if (flags & pf::kSeqIncrementalStateCleared) {
    cleared_ = true;
    categories_.clear(), names_.clear(), annotation_names_.clear(), strings_.clear();
  }
  if ((flags & pf::kSeqNeedsIncrementalState) && !cleared_)
    Fail("needs state before it was cleared");
  if (!interned.empty()) Interned(interned);
  if (event.data() == nullptr) return;
  if (!has_ts || !(flags & pf::kSeqNeedsIncrementalState)) Fail("event without ts or flag");
  TrackEvent(event, ts);
}

DecodedTrace Decoder::Decode(std::string_view file) {
  Reader r(file);
  Field f;
  while (r.Next(f)) {
    ++trace_.packets;
    if (f.number != pf::kTracePacket || f.type != proto::kLengthDelimited) {
      Fail("not a Trace.packet");
      continue;
    }
    Packet(f.bytes);
  }
  if (!r.ok()) Fail("truncated or malformed file");
  return std::move(trace_);
}

}  // namespace

const DecodedAnnotation* DecodedEvent::Find(std::string_view annotation) const {
  for (const DecodedAnnotation& a : annotations) {
    if (a.name == annotation) return &a;
  }
  return nullptr;
}

std::vector<std::string> DecodedEvent::CallStack() const {
  std::vector<std::string> frames = {"ROOT"};
  while (const DecodedAnnotation* a = Find("call_stack_" + std::to_string(frames.size() - 1))) {
    frames.push_back(a->s);
  }
  frames.push_back(name);
  return frames;
}

const DecodedTrack* DecodedTrace::Track(uint64_t uuid) const {
  for (const DecodedTrack& t : tracks) {
    if (t.uuid == uuid) return &t;
  }
  return nullptr;
}

const DecodedTrack* DecodedTrace::TrackNamed(std::string_view name) const {
  for (const DecodedTrack& t : tracks) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

DecodedTrace DecodePerfettoTrace(std::string_view file) { return Decoder().Decode(file); }

std::string CheckTracks(const DecodedTrace& trace) {
  std::map<uint64_t, uint64_t> last_ts;
  std::map<uint64_t, std::vector<uint64_t>> open;  // track -> begin times
  std::map<uint64_t, int> flow_starts, flow_ends;
  for (size_t i = 0; i < trace.events.size(); ++i) {
    const DecodedEvent& e = trace.events[i];
    std::string where = "event " + std::to_string(i) + " on track " + std::to_string(e.track);
    auto [it, first] = last_ts.try_emplace(e.track, e.ts);
    if (!first && e.ts < it->second) return where + ": time goes back";
    it->second = e.ts;
    if (e.type == pf::kTypeSliceBegin) open[e.track].push_back(e.ts);
    if (e.type == pf::kTypeSliceEnd) {
      if (open[e.track].empty()) return where + ": end without a begin";
      open[e.track].pop_back();
    }
    for (uint64_t id : e.flow_ids) ++flow_starts[id];
    for (uint64_t id : e.terminating_flow_ids) ++flow_ends[id];
  }
  for (const auto& [track, begins] : open) {
    if (!begins.empty()) return "track " + std::to_string(track) + ": a slice never ends";
  }
  if (flow_starts != flow_ends) return "a flow lacks one end";
  for (const auto& [id, n] : flow_starts) {
    if (n != 1) return "flow " + std::to_string(id) + " used " + std::to_string(n) + " times";
  }
  return "";
}

}  // namespace proton::test
