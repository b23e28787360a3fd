// Test helper: Perfetto traces built with util/proto_wire.h in the layout of formats.md §7
// (our profiler: clock snapshot, REALTIME defaults, interned names, launch instants) or in
// Triton main's (relative times, no clock snapshot, flows from scope slices).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "util/proto_wire.h"
#include "viewer/traces/perfetto_fields.h"

namespace proton::viewer::traces::testing {

class PerfettoBuilder {
 public:
  explicit PerfettoBuilder(uint32_t sequence = 1) : sequence_(sequence) {}

  const std::string& bytes() const { return out_; }

  void ClockSnapshot(uint64_t realtime, uint64_t boottime) {
    proto::NestedMessage packet(out_, pf::kTracePacket);
    proto::NestedMessage snapshot(out_, pf::packet::kClockSnapshot);
    for (auto [id, t] :
         {std::pair{pf::clock::kRealtime, realtime}, std::pair{pf::clock::kBoottime, boottime}}) {
      proto::NestedMessage clock(out_, pf::clock::kClocks);
      proto::AppendUint(out_, pf::clock::kClockId, id);
      proto::AppendUint(out_, pf::clock::kClockTimestamp, t);
    }
    proto::AppendUint(out_, pf::clock::kPrimaryTraceClock, pf::clock::kRealtime);
  }

  // The packet that clears the sequence's state; with `realtime`, its clock defaults to
  // REALTIME.
  void SequenceStart(bool realtime) {
    proto::NestedMessage packet(out_, pf::kTracePacket);
    Sequence(pf::packet::kSeqIncrementalStateCleared | pf::packet::kSeqNeedsIncrementalState);
    if (realtime) {
      proto::NestedMessage defaults(out_, pf::packet::kDefaults);
      proto::AppendUint(out_, pf::defaults::kTimestampClockId, pf::clock::kRealtime);
    }
    interned_.clear();
  }

  void ProcessTrack(uint64_t uuid, int64_t pid, const std::string& name) {
    proto::NestedMessage packet(out_, pf::kTracePacket);
    proto::NestedMessage track(out_, pf::packet::kTrackDescriptor);
    proto::AppendUint(out_, pf::track::kUuid, uuid);
    proto::AppendBytes(out_, pf::track::kName, name);
    proto::NestedMessage process(out_, pf::track::kProcess);
    proto::AppendInt(out_, pf::track::kProcessPid, pid);
    proto::AppendBytes(out_, pf::track::kProcessName, name);
  }

  void LaneTrack(uint64_t uuid, uint64_t parent, const std::string& name) {
    proto::NestedMessage packet(out_, pf::kTracePacket);
    proto::NestedMessage track(out_, pf::packet::kTrackDescriptor);
    proto::AppendUint(out_, pf::track::kUuid, uuid);
    proto::AppendUint(out_, pf::track::kParentUuid, parent);
    proto::AppendBytes(out_, pf::track::kName, name);
  }

  struct Annotation {
    std::string name;
    bool is_string = false;
    std::string text;
    int64_t int_value = 0;
  };

  // One TrackEvent packet; names are interned (an interned-data packet before it when new).
  void Event(uint64_t t, uint32_t type, uint64_t track, const std::string& name,
             const std::string& category, const std::vector<Annotation>& annotations = {},
             const std::vector<uint64_t>& flows_out = {},
             const std::vector<uint64_t>& flows_in = {}) {
    const uint64_t name_iid = name.empty() ? 0 : Intern(pf::interned::kEventNames, name);
    const uint64_t category_iid =
        category.empty() ? 0 : Intern(pf::interned::kEventCategories, category);
    std::vector<std::pair<uint64_t, uint64_t>> ids;  // (name iid, string iid or 0)
    ids.reserve(annotations.size());
    for (const Annotation& a : annotations) {
      ids.emplace_back(
          Intern(pf::interned::kDebugAnnotationNames, a.name),
          a.is_string ? Intern(pf::interned::kDebugAnnotationStringValues, a.text) : 0);
    }
    FlushInterned();
    proto::NestedMessage packet(out_, pf::kTracePacket);
    proto::AppendUint(out_, pf::packet::kTimestamp, t);
    Sequence(pf::packet::kSeqNeedsIncrementalState);
    proto::NestedMessage event(out_, pf::packet::kTrackEvent);
    proto::AppendUint(out_, pf::event::kType, type);
    proto::AppendUint(out_, pf::event::kTrackUuid, track);
    if (name_iid != 0) proto::AppendUint(out_, pf::event::kNameIid, name_iid);
    if (category_iid != 0) proto::AppendUint(out_, pf::event::kCategoryIids, category_iid);
    for (size_t i = 0; i < annotations.size(); ++i) {
      proto::NestedMessage a(out_, pf::event::kDebugAnnotations);
      proto::AppendUint(out_, pf::annotation::kNameIid, ids[i].first);
      if (annotations[i].is_string) {
        proto::AppendUint(out_, pf::annotation::kStringIid, ids[i].second);
      } else {
        proto::AppendInt(out_, pf::annotation::kInt, annotations[i].int_value);
      }
    }
    for (uint64_t id : flows_out) proto::AppendUint(out_, pf::event::kFlowIdsOld, id);
    for (uint64_t id : flows_in) proto::AppendUint(out_, pf::event::kTerminatingFlowIdsOld, id);
  }

  // A slice: begin and end packets.
  void Slice(uint64_t start, uint64_t end, uint64_t track, const std::string& name,
             const std::string& category, const std::vector<Annotation>& annotations = {},
             const std::vector<uint64_t>& flows_out = {},
             const std::vector<uint64_t>& flows_in = {}) {
    Event(start, pf::event::kTypeSliceBegin, track, name, category, annotations, flows_out,
          flows_in);
    Event(end, pf::event::kTypeSliceEnd, track, "", "");
  }

 private:
  void Sequence(uint32_t flags) {
    proto::AppendUint(out_, pf::packet::kSequenceId, sequence_);
    proto::AppendUint(out_, pf::packet::kSequenceFlags, flags);
  }

  uint64_t Intern(uint32_t table, const std::string& s) {
    auto& index = interned_[table];
    auto it = index.find(s);
    if (it != index.end()) return it->second;
    const uint64_t iid = index.size() + 1;
    index.emplace(s, iid);
    pending_.push_back({table, iid, s});
    return iid;
  }

  void FlushInterned() {
    if (pending_.empty()) return;
    proto::NestedMessage packet(out_, pf::kTracePacket);
    Sequence(pf::packet::kSeqNeedsIncrementalState);
    proto::NestedMessage data(out_, pf::packet::kInternedData);
    for (const Pending& p : pending_) {
      proto::NestedMessage entry(out_, p.table);
      proto::AppendUint(out_, pf::interned::kIid, p.iid);
      proto::AppendBytes(out_, pf::interned::kName, p.text);
    }
    pending_.clear();
  }

  struct Pending {
    uint32_t table;
    uint64_t iid;
    std::string text;
  };
  uint32_t sequence_;
  std::string out_;
  std::map<uint32_t, std::map<std::string, uint64_t>> interned_;
  std::vector<Pending> pending_;
};

}  // namespace proton::viewer::traces::testing
