// See perfetto_trace_reader.h. The file is a Trace message: records "0x0a <length>
// <TracePacket>", each read whole into the window and decoded in place.
#include "viewer/traces/perfetto_trace_reader.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "util/proto_wire.h"
#include "viewer/traces/perfetto_fields.h"
#include "viewer/traces/perfetto_sequences.h"
#include "viewer/traces/perfetto_track_event.h"
#include "viewer/traces/perfetto_tracks.h"

namespace proton::viewer::traces {
namespace {

// Larger packets are refused: a damaged length must not make the reader hold the rest of a
// huge file (Perfetto's own packets are far smaller).
constexpr uint64_t kMaxPacket = uint64_t{256} << 20;

// The fields of one TracePacket that the reader uses.
struct Packet {
  std::optional<uint64_t> timestamp;
  std::optional<uint32_t> clock_id;
  uint32_t sequence_id = 0;
  uint32_t flags = 0;
  std::string_view track_event, track_descriptor, interned, defaults, clock_snapshot;
};

bool ParsePacket(std::string_view bytes, Packet& p) {
  proto::Reader r(bytes);
  proto::Field f;
  while (r.Next(f)) {
    const bool varint = f.type == proto::kVarint;
    const bool sub = f.type == proto::kLengthDelimited;
    switch (f.number) {
      case pf::packet::kTimestamp:
        if (varint) p.timestamp = f.varint;
        break;
      case pf::packet::kTimestampClockId:
        if (varint) p.clock_id = static_cast<uint32_t>(f.varint);
        break;
      case pf::packet::kSequenceId:
        if (varint) p.sequence_id = static_cast<uint32_t>(f.varint);
        break;
      case pf::packet::kSequenceFlags:
        if (varint) p.flags |= static_cast<uint32_t>(f.varint);
        break;
      case pf::packet::kIncrementalStateCleared:
        if (varint && f.varint != 0) p.flags |= pf::packet::kSeqIncrementalStateCleared;
        break;
      case pf::packet::kTrackEvent:
        if (sub) p.track_event = f.bytes;
        break;
      case pf::packet::kTrackDescriptor:
        if (sub) p.track_descriptor = f.bytes;
        break;
      case pf::packet::kInternedData:
        if (sub) p.interned = f.bytes;
        break;
      case pf::packet::kDefaults:
        if (sub) p.defaults = f.bytes;
        break;
      case pf::packet::kClockSnapshot:
        if (sub) p.clock_snapshot = f.bytes;
        break;
      default: break;
    }
  }
  return r.ok();
}

class PerfettoReader {
 public:
  PerfettoReader(TraceInput& input, TraceVisitor& visitor) : input_(input), visitor_(visitor) {}
  Status Run();

 private:
  Status Record(const char*& pos, bool& done);
  Status Dispatch(std::string_view bytes);
  Status Describe(std::string_view bytes);
  Status OnTrackEvent(const Packet& packet, const PerfettoSequence& sequence);
  Status Begin(bool absolute);
  Status Emit(uint32_t track, int64_t start, int64_t end, bool instant, const DecodedTrackEvent& e);
  Status EndSlice(uint32_t track, int64_t end);
  Error Fail(const std::string& what) const;

  TraceInput& input_;
  TraceVisitor& visitor_;
  uint64_t packet_offset_ = 0;
  bool began_ = false;
  TraceInfo info_;
  TraceSummary summary_;
  PerfettoSequences sequences_;
  PerfettoClocks clocks_;
  PerfettoTracks tracks_;
  TrackEventDecoder decoder_;
  DecodedTrackEvent event_;
  DecodedTrackEvent slice_;  // an ended slice, as Emit takes it
};

Error PerfettoReader::Fail(const std::string& what) const {
  return Status::Error("cannot read '" + input_.name() + "': " + what + " (packet at byte " +
                       std::to_string(packet_offset_) + ")");
}

Status PerfettoReader::Run() {
  const char* pos = input_.begin();
  bool done = false;
  while (!done) PROTON_RETURN_IF_ERROR(Record(pos, done));
  PROTON_RETURN_IF_ERROR(Begin(false));
  summary_.unmatched += tracks_.OpenCount();
  return visitor_.OnEnd(summary_);
}

bool ReadVarint(const char*& p, const char* end, uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 70 && p < end; shift += 7) {
    const auto b = static_cast<uint8_t>(*p++);
    value |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

// One record of the Trace message at `pos` (a packet, or a field Perfetto does not define
// there, skipped); `done` at the end of the file.
Status PerfettoReader::Record(const char*& pos, bool& done) {
  while (input_.end() - pos < 20 && !input_.at_eof()) {
    PROTON_ASSIGN_OR_RETURN(const bool more, input_.Refill(pos));
    if (!more) break;
  }
  if (pos == input_.end()) {
    done = true;
    return Status();
  }
  packet_offset_ = input_.Offset(pos);
  const char* p = pos;
  uint64_t key = 0, length = 0;
  if (!ReadVarint(p, input_.end(), key)) return Fail("the trace ends early (truncated)");
  const auto wire = static_cast<uint32_t>(key & 7);
  if ((key >> 3) == 0) return Fail("not a Perfetto trace (a record of field 0)");
  if (wire == proto::kVarint) {
    if (!ReadVarint(p, input_.end(), length)) return Fail("the trace ends early (truncated)");
    pos = p;
    return Status();
  }
  if (wire == proto::kFixed64 || wire == proto::kFixed32) {
    length = wire == proto::kFixed64 ? 8 : 4;
  } else if (wire != proto::kLengthDelimited || !ReadVarint(p, input_.end(), length)) {
    return Fail(wire == proto::kLengthDelimited ? "the trace ends early (truncated)"
                                                : "not a Perfetto trace (a malformed record)");
  }
  const auto header = static_cast<size_t>(p - pos);
  if (length > kMaxPacket) return Fail("a packet of " + std::to_string(length) + " bytes");
  if (input_.file_size() != 0 && packet_offset_ + header + length > input_.file_size()) {
    return Fail("the trace ends early (truncated)");
  }
  while (static_cast<uint64_t>(input_.end() - (pos + header)) < length) {
    PROTON_ASSIGN_OR_RETURN(const bool more, input_.Refill(pos));
    if (!more) return Fail("the trace ends early (truncated)");
  }
  const std::string_view bytes(pos + header, length);
  pos += header + length;
  if ((key >> 3) != pf::kTracePacket || wire != proto::kLengthDelimited) return Status();
  return Dispatch(bytes);
}

Status PerfettoReader::Dispatch(std::string_view bytes) {
  Packet packet;
  if (!ParsePacket(bytes, packet)) return Fail("a malformed packet");
  PerfettoSequence& sequence = sequences_.Get(packet.sequence_id);
  if ((packet.flags & pf::packet::kSeqIncrementalStateCleared) != 0) {
    sequence.Clear();
    sequence.cleared = true;
  }
  if (!packet.defaults.empty() && !sequence.SetDefaults(packet.defaults)) {
    return Fail("malformed packet defaults");
  }
  if (!packet.interned.empty() && !sequence.AddInterned(packet.interned)) {
    return Fail("malformed interned data");
  }
  if (!packet.clock_snapshot.empty() && !clocks_.AddSnapshot(packet.clock_snapshot)) {
    return Fail("a malformed clock snapshot");
  }
  if (!packet.track_descriptor.empty()) PROTON_RETURN_IF_ERROR(Describe(packet.track_descriptor));
  if (packet.track_event.empty()) return Status();
  if ((packet.flags & pf::packet::kSeqNeedsIncrementalState) != 0 && !sequence.cleared) {
    ++summary_.unsupported;  // its sequence's interned state was never given: Perfetto skips it
    return Status();
  }
  return OnTrackEvent(packet, sequence);
}

Status PerfettoReader::Describe(std::string_view bytes) {
  std::optional<uint32_t> renamed;
  if (!tracks_.AddDescriptor(bytes, renamed)) return Fail("a malformed track descriptor");
  if (!began_ && tracks_.process() != nullptr) {
    info_.pid = tracks_.process()->pid.value_or(kUnknown);
    info_.process_name = tracks_.process()->process_name;
  }
  if (renamed) return visitor_.OnTrack(tracks_.TrackOf(*renamed));
  return Status();
}

Status PerfettoReader::Begin(bool absolute) {
  if (began_) return Status();
  began_ = true;
  info_.format = TraceFormat::kPerfetto;
  info_.absolute_time = absolute;
  return visitor_.OnBegin(info_);
}

Status PerfettoReader::OnTrackEvent(const Packet& packet, const PerfettoSequence& sequence) {
  if (!decoder_.Decode(packet.track_event, sequence, event_)) return Fail(decoder_.error());
  const uint32_t type = event_.type;
  if (type != pf::event::kTypeSliceBegin && type != pf::event::kTypeSliceEnd &&
      type != pf::event::kTypeInstant) {
    ++summary_.unsupported;  // counters, legacy events
    return Status();
  }
  if (!packet.timestamp) return Fail("a track event without a timestamp");
  if (*packet.timestamp > static_cast<uint64_t>(INT64_MAX)) return Fail("a timestamp out of range");
  const uint32_t clock = packet.clock_id.value_or(sequence.clock_id.value_or(pf::clock::kBoottime));
  const std::optional<int64_t> realtime = clocks_.ToRealtime(clock, *packet.timestamp);
  PROTON_RETURN_IF_ERROR(Begin(realtime.has_value()));
  const int64_t t =
      info_.absolute_time && realtime ? *realtime : static_cast<int64_t>(*packet.timestamp);
  const uint64_t uuid = event_.track_uuid.value_or(sequence.track_uuid.value_or(0));
  bool created = false;
  const uint32_t track = tracks_.Use(uuid, created);
  if (created) PROTON_RETURN_IF_ERROR(visitor_.OnTrack(tracks_.TrackOf(track)));
  if (type == pf::event::kTypeInstant) return Emit(track, t, t, true, event_);
  if (type == pf::event::kTypeSliceEnd) return EndSlice(track, t);
  OpenSlice& s = tracks_.Push(track);
  s.start_ns = t;
  s.name.assign(event_.name);
  s.category.assign(event_.category);
  s.call_stack.assign(event_.call_stack.begin(), event_.call_stack.end());
  s.texts.clear();
  s.metrics.clear();
  for (Metric m : event_.metrics) {
    m.name = s.texts.emplace_back(m.name);
    if (m.type == Metric::Type::kString) m.text = s.texts.emplace_back(m.text);
    s.metrics.push_back(m);
  }
  s.flows_out = event_.flows_out;
  s.flows_in = event_.flows_in;
  s.original_dur_ns = event_.original_dur_ns;
  return Status();
}

Status PerfettoReader::Emit(uint32_t track, int64_t start, int64_t end, bool instant,
                            const DecodedTrackEvent& e) {
  traces::TraceEvent out;
  out.kind = EventKindOfCategory(e.category);
  out.instant = instant;
  out.track = track;
  out.start_ns = start;
  out.end_ns = end;
  out.name = e.name;
  out.category = e.category;
  out.call_stack = e.call_stack;
  out.metrics = e.metrics;
  out.flows_out = e.flows_out;
  out.flows_in = e.flows_in;
  ++summary_.events;
  return visitor_.OnEvent(out);
}

Status PerfettoReader::EndSlice(uint32_t track, int64_t end) {
  OpenSlice* s = tracks_.Pop(track);
  if (s == nullptr) {
    ++summary_.unmatched;
    return Status();
  }
  if (s->original_dur_ns && *s->original_dur_ns <= static_cast<uint64_t>(INT64_MAX - s->start_ns)) {
    end = s->start_ns + static_cast<int64_t>(*s->original_dur_ns);  // the recorded end
  }
  slice_.Clear();
  slice_.name = s->name;
  slice_.category = s->category;
  slice_.call_stack.assign(s->call_stack.begin(), s->call_stack.end());
  slice_.metrics = s->metrics;
  slice_.flows_out = s->flows_out;
  slice_.flows_in = s->flows_in;
  return Emit(track, s->start_ns, std::max(end, s->start_ns), false, slice_);
}

}  // namespace

Status ReadPerfettoTrace(TraceInput& input, TraceVisitor& visitor) {
  PerfettoReader reader(input, visitor);
  return reader.Run();
}

}  // namespace proton::viewer::traces
