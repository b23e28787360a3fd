// The lanes of a Chrome trace: (pid, tid) pairs numbered as tracks in order of first sight,
// named by "thread_name" metadata events when the file has them (Triton 3.7+, ours), else by
// what their first event is (Triton 3.6: a kernel's tid is its stream).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

class ChromeLanes {
 public:
  struct Lane {
    int64_t pid = 0;
    int64_t tid = 0;
    std::string name;
    bool named = false;  // by metadata
    TrackKind kind = TrackKind::kOther;
    int64_t id = kUnknown;
    int64_t device = kUnknown;
  };

  // The lane of (pid, tid); `created` tells whether it is new (then named from `first_kind`,
  // the kind of the event that uses it first).
  uint32_t Find(int64_t pid, int64_t tid, EventKind first_kind, bool& created);
  // A thread_name: names (or renames) the lane; `created` as above.
  uint32_t Name(int64_t pid, int64_t tid, std::string_view name, bool& created);
  const Lane& lane(uint32_t index) const { return lanes_[index]; }
  Track TrackOf(uint32_t index) const;

 private:
  static uint64_t Key(int64_t pid, int64_t tid) {
    return (static_cast<uint64_t>(pid) * 0x9e3779b97f4a7c15ull) ^ static_cast<uint64_t>(tid);
  }
  uint32_t Add(int64_t pid, int64_t tid);

  std::vector<Lane> lanes_;
  std::unordered_multimap<uint64_t, uint32_t> index_;
  // The last lane found: events come lane by lane.
  int64_t last_pid_ = 0, last_tid_ = 0;
  uint32_t last_ = UINT32_MAX;
};

}  // namespace proton::viewer::traces
