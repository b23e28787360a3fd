// Test helper: decodes a merged Perfetto trace (formats.md §9) on its own, with nothing but
// util/proto_wire.h's field walker, and lists every rule it breaks: each record a packet,
// every interned id known on its sequence, every event's track a lane of a process, on each
// track timestamps that never go back and slices that begin and end in LIFO order, every
// flow with exactly one start and one end, one sequence and one pid per process, the
// REALTIME clock.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/proto_wire.h"
#include "viewer/traces/perfetto_fields.h"

namespace proton::viewer::traces::testing {

struct CheckedSlice {
  uint64_t track = 0;
  std::string name, category;
  uint64_t start = 0, end = 0;
  bool instant = false;
  std::map<std::string, std::string> annotations;  // values as text
  std::vector<uint64_t> flows_out, flows_in;
};

struct MergedTraceCheck {
  struct Process {
    std::string name, cmdline;
    int64_t pid = 0;
    uint32_t sequence = 0;
  };
  struct Lane {
    std::string name;
    uint64_t parent = 0;
  };
  std::vector<std::string> problems;
  std::map<uint64_t, Process> processes;  // by uuid
  std::map<uint64_t, Lane> lanes;         // by uuid
  std::vector<CheckedSlice> slices;       // slices as they end, instants as they come
  bool realtime_primary = false;

  const Process* ProcessOfTrack(uint64_t track) const {
    const auto lane = lanes.find(track);
    if (lane == lanes.end()) return nullptr;
    const auto p = processes.find(lane->second.parent);
    return p == processes.end() ? nullptr : &p->second;
  }
  // (process name, slice name) -> count, for one category.
  std::map<std::pair<std::string, std::string>, int> Counts(const std::string& category) const {
    std::map<std::pair<std::string, std::string>, int> out;
    for (const CheckedSlice& s : slices) {
      const Process* p = ProcessOfTrack(s.track);
      if (s.category == category && p != nullptr) ++out[{p->name, s.name}];
    }
    return out;
  }
  std::vector<const CheckedSlice*> Named(const std::string& process,
                                         const std::string& name) const {
    std::vector<const CheckedSlice*> out;
    for (const CheckedSlice& s : slices) {
      const Process* p = ProcessOfTrack(s.track);
      if (p != nullptr && p->name == process && s.name == name) out.push_back(&s);
    }
    return out;
  }
};

class MergedTraceChecker {
 public:
  MergedTraceCheck Check(std::string_view bytes) {
    proto::Reader r(bytes);
    proto::Field f;
    while (r.Next(f)) {
      if (f.number != pf::kTracePacket || f.type != proto::kLengthDelimited) {
        Problem("a record that is not a packet");
        continue;
      }
      Packet(f.bytes);
    }
    if (!r.ok()) Problem("the file is not a protobuf Trace message");
    Finish();
    return std::move(out_);
  }

 private:
  struct Sequence {
    bool cleared = false;
    bool realtime = false;
    std::map<uint32_t, std::map<uint64_t, std::string>> interned;  // by InternedData field
  };
  struct Track {
    uint64_t last = 0;
    std::vector<CheckedSlice> open;
    uint32_t sequence = 0;
  };

  void Problem(std::string what) { out_.problems.push_back(std::move(what)); }

  std::string Resolve(Sequence& s, uint32_t field, uint64_t iid) {
    const auto& table = s.interned[field];
    const auto it = table.find(iid);
    if (it == table.end()) {
      Problem("iid " + std::to_string(iid) + " of interned field " + std::to_string(field) +
              " is not known on its sequence");
      return "";
    }
    return it->second;
  }

  void Interned(Sequence& s, std::string_view data) {
    proto::Reader r(data);
    proto::Field f;
    while (r.Next(f)) {
      proto::Reader e(f.bytes);
      proto::Field g;
      uint64_t iid = 0;
      std::string name;
      while (e.Next(g)) {
        if (g.number == pf::interned::kIid) iid = g.varint;
        if (g.number == pf::interned::kName) name.assign(g.bytes);
      }
      if (iid == 0) Problem("an interned entry without an iid");
      if (s.interned[f.number].count(iid) != 0) Problem("an iid interned twice");
      s.interned[f.number][iid] = name;
    }
  }

  void Snapshot(std::string_view data) {
    proto::Reader r(data);
    proto::Field f;
    std::set<uint64_t> clocks;
    while (r.Next(f)) {
      if (f.number == pf::clock::kPrimaryTraceClock) {
        out_.realtime_primary = f.varint == pf::clock::kRealtime;
      }
      if (f.number != pf::clock::kClocks) continue;
      proto::Reader c(f.bytes);
      proto::Field g;
      while (c.Next(g)) {
        if (g.number == pf::clock::kClockId) clocks.insert(g.varint);
      }
    }
    if (clocks != std::set<uint64_t>{pf::clock::kRealtime, pf::clock::kBoottime}) {
      Problem("the clock snapshot does not hold REALTIME and BOOTTIME");
    }
  }

  void Descriptor(std::string_view data, uint32_t sequence) {
    proto::Reader r(data);
    proto::Field f;
    uint64_t uuid = 0, parent = 0;
    std::string name;
    bool is_process = false;
    MergedTraceCheck::Process p;
    while (r.Next(f)) {
      if (f.number == pf::track::kUuid) uuid = f.varint;
      if (f.number == pf::track::kParentUuid) parent = f.varint;
      if (f.number == pf::track::kName) name.assign(f.bytes);
      if (f.number != pf::track::kProcess) continue;
      is_process = true;
      proto::Reader d(f.bytes);
      proto::Field g;
      while (d.Next(g)) {
        if (g.number == pf::track::kProcessPid) p.pid = static_cast<int64_t>(g.varint);
        if (g.number == pf::track::kProcessName) p.name.assign(g.bytes);
        if (g.number == pf::track::kProcessCmdline) p.cmdline.assign(g.bytes);
      }
    }
    if (out_.processes.count(uuid) != 0 || out_.lanes.count(uuid) != 0) {
      Problem("track uuid " + std::to_string(uuid) + " described twice");
    }
    if (is_process) {
      p.sequence = sequence;
      for (const auto& [other_uuid, other] : out_.processes) {
        if (other.pid == p.pid) Problem("two processes with pid " + std::to_string(p.pid));
        if (other.sequence == sequence) Problem("two processes on one sequence");
      }
      out_.processes[uuid] = p;
    } else {
      if (out_.processes.count(parent) == 0) Problem("a lane whose parent is no process");
      out_.lanes[uuid] = {name, parent};
    }
  }

  void Annotation(Sequence& s, std::string_view data, CheckedSlice& slice) {
    proto::Reader r(data);
    proto::Field f;
    std::string name, value;
    while (r.Next(f)) {
      switch (f.number) {
        case pf::annotation::kNameIid:
          name = Resolve(s, pf::interned::kDebugAnnotationNames, f.varint);
          break;
        case pf::annotation::kStringIid:
          value = Resolve(s, pf::interned::kDebugAnnotationStringValues, f.varint);
          break;
        case pf::annotation::kInt: value = std::to_string(static_cast<int64_t>(f.varint)); break;
        case pf::annotation::kUint: value = std::to_string(f.varint); break;
        case pf::annotation::kDouble: value = std::to_string(f.as_double()); break;
        default: break;
      }
    }
    slice.annotations[name] = value;
  }

  void Event(Sequence& s, std::string_view data, uint64_t ts, uint32_t sequence) {
    proto::Reader r(data);
    proto::Field f;
    CheckedSlice e;
    uint64_t type = 0;
    e.start = e.end = ts;
    while (r.Next(f)) {
      switch (f.number) {
        case pf::event::kType: type = f.varint; break;
        case pf::event::kTrackUuid: e.track = f.varint; break;
        case pf::event::kNameIid: e.name = Resolve(s, pf::interned::kEventNames, f.varint); break;
        case pf::event::kCategoryIids:
          e.category = Resolve(s, pf::interned::kEventCategories, f.varint);
          break;
        case pf::event::kDebugAnnotations: Annotation(s, f.bytes, e); break;
        case pf::event::kFlowIdsOld: e.flows_out.push_back(f.varint); break;
        case pf::event::kTerminatingFlowIdsOld: e.flows_in.push_back(f.varint); break;
        default: Problem("an unexpected TrackEvent field " + std::to_string(f.number)); break;
      }
    }
    for (uint64_t id : e.flows_out) ++flow_starts_[id];
    for (uint64_t id : e.flows_in) ++flow_ends_[id];
    Track& t = tracks_[e.track];
    if (out_.lanes.count(e.track) == 0) Problem("an event on an undescribed track");
    if (t.sequence != 0 && t.sequence != sequence) Problem("a track written on two sequences");
    t.sequence = sequence;
    if (ts < t.last) Problem("a timestamp goes back on track " + std::to_string(e.track));
    t.last = ts;
    if (type == pf::event::kTypeSliceBegin) {
      t.open.push_back(std::move(e));
    } else if (type == pf::event::kTypeSliceEnd) {
      if (t.open.empty()) {
        Problem("a slice end without a begin");
        return;
      }
      CheckedSlice done = std::move(t.open.back());
      t.open.pop_back();
      done.end = ts;
      out_.slices.push_back(std::move(done));
    } else if (type == pf::event::kTypeInstant) {
      e.instant = true;
      out_.slices.push_back(std::move(e));
    } else {
      Problem("an event of type " + std::to_string(type));
    }
  }

  static bool DefaultsRealtime(std::string_view data) {
    proto::Reader r(data);
    proto::Field f;
    bool realtime = false;
    while (r.Next(f)) {
      if (f.number == pf::defaults::kTimestampClockId) realtime = f.varint == pf::clock::kRealtime;
    }
    return realtime;
  }

  void Packet(std::string_view data) {
    proto::Reader r(data);
    proto::Field f;
    uint64_t ts = 0, flags = 0;
    bool has_ts = false;
    uint32_t sequence = 0;
    std::string_view event, interned, descriptor, snapshot, defaults;
    while (r.Next(f)) {
      switch (f.number) {
        case pf::packet::kTimestamp: ts = f.varint, has_ts = true; break;
        case pf::packet::kSequenceId: sequence = static_cast<uint32_t>(f.varint); break;
        case pf::packet::kSequenceFlags: flags = f.varint; break;
        case pf::packet::kTrackEvent: event = f.bytes; break;
        case pf::packet::kInternedData: interned = f.bytes; break;
        case pf::packet::kTrackDescriptor: descriptor = f.bytes; break;
        case pf::packet::kClockSnapshot: snapshot = f.bytes; break;
        case pf::packet::kDefaults: defaults = f.bytes; break;
        default: Problem("an unexpected packet field " + std::to_string(f.number)); break;
      }
    }
    if (!r.ok()) Problem("a malformed packet");
    if (sequence == 0) Problem("a packet without a sequence id");
    Sequence& s = sequences_[sequence];
    if ((flags & pf::packet::kSeqIncrementalStateCleared) != 0) s = Sequence{true, false, {}};
    if ((flags & pf::packet::kSeqNeedsIncrementalState) != 0 && !s.cleared) {
      Problem("a packet needs the state of a sequence that was never cleared");
    }
    if (!defaults.empty()) s.realtime = DefaultsRealtime(defaults);
    if (!snapshot.empty()) Snapshot(snapshot);
    if (!interned.empty()) Interned(s, interned);
    if (!descriptor.empty()) Descriptor(descriptor, sequence);
    if (event.empty()) return;
    if (!has_ts) Problem("an event without a timestamp");
    if (!s.realtime) Problem("an event on a sequence not on the REALTIME clock");
    Event(s, event, ts, sequence);
  }

  void Finish() {
    for (const auto& [uuid, t] : tracks_) {
      if (!t.open.empty()) Problem("a slice begun and never ended on " + std::to_string(uuid));
      const MergedTraceCheck::Process* p = out_.ProcessOfTrack(uuid);
      if (p != nullptr && p->sequence != t.sequence) Problem("a lane off its process's sequence");
    }
    std::set<uint64_t> ids;
    for (const auto& [id, n] : flow_starts_) ids.insert(id);
    for (const auto& [id, n] : flow_ends_) ids.insert(id);
    for (const uint64_t id : ids) {
      if (flow_starts_[id] != 1 || flow_ends_[id] != 1) {
        Problem("flow " + std::to_string(id) + " has " + std::to_string(flow_starts_[id]) +
                " starts and " + std::to_string(flow_ends_[id]) + " ends");
      }
    }
    if (!out_.realtime_primary) Problem("no clock snapshot with REALTIME as the primary clock");
  }

  MergedTraceCheck out_;
  std::map<uint32_t, Sequence> sequences_;
  std::map<uint64_t, Track> tracks_;
  std::map<uint64_t, int> flow_starts_, flow_ends_;
};

inline MergedTraceCheck CheckMergedTrace(std::string_view bytes) {
  return MergedTraceChecker().Check(bytes);
}

}  // namespace proton::viewer::traces::testing
