// See chrome_lanes.h.
#include "viewer/traces/chrome_lanes.h"

#include "viewer/traces/track_names.h"

namespace proton::viewer::traces {

uint32_t ChromeLanes::Add(int64_t pid, int64_t tid) {
  const auto index = static_cast<uint32_t>(lanes_.size());
  Lane lane;
  lane.pid = pid;
  lane.tid = tid;
  lanes_.push_back(std::move(lane));
  index_.emplace(Key(pid, tid), index);
  return index;
}

uint32_t ChromeLanes::Find(int64_t pid, int64_t tid, EventKind first_kind, bool& created) {
  created = false;
  if (last_ != UINT32_MAX && pid == last_pid_ && tid == last_tid_) return last_;
  const auto [begin, end] = index_.equal_range(Key(pid, tid));
  for (auto it = begin; it != end; ++it) {
    const Lane& l = lanes_[it->second];
    if (l.pid == pid && l.tid == tid) {
      last_pid_ = pid, last_tid_ = tid, last_ = it->second;
      return last_;
    }
  }
  created = true;
  last_ = Add(pid, tid);
  last_pid_ = pid, last_tid_ = tid;
  Lane& lane = lanes_[last_];
  // Triton 3.6 names no lane: its tids are stream ids of kernels. A CPU event's tid is a
  // thread's.
  lane.kind = first_kind == EventKind::kKernel  ? TrackKind::kGpuStream
              : first_kind == EventKind::kOther ? TrackKind::kOther
                                                : TrackKind::kCpuThread;
  lane.id = tid;
  lane.name = DefaultTrackName(lane.kind, tid);
  return last_;
}

uint32_t ChromeLanes::Name(int64_t pid, int64_t tid, std::string_view name, bool& created) {
  const uint32_t index = Find(pid, tid, EventKind::kOther, created);
  Lane& lane = lanes_[index];
  lane.name.assign(name);
  lane.named = true;
  const TrackIdentity identity = IdentifyTrackName(name);
  lane.kind = identity.kind;
  lane.id = identity.kind == TrackKind::kOther ? tid : identity.id;
  lane.device = identity.device;
  return index;
}

Track ChromeLanes::TrackOf(uint32_t index) const {
  const Lane& l = lanes_[index];
  Track t;
  t.index = index;
  t.kind = l.kind;
  t.id = l.id;
  t.device = l.device;
  t.name = l.name;
  return t;
}

}  // namespace proton::viewer::traces
