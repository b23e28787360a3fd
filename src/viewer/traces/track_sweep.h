// Per-track order and nesting for writing slices (formats.md §7.4, which the profiler's own
// Perfetto writer follows too): each track's events sorted by (start ascending, end
// descending, slices before instants, file order) and swept with a stack of open slices, so that on
// every track timestamps never go back and slices nest: a slice that would outlive the open slice
// around it (kernels of one stream can overlap with programmatic dependent launch) is clamped to
// that slice's end.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "viewer/traces/trace_store.h"

namespace proton::viewer::traces {

struct SweepStep {
  enum class Kind : uint8_t { kBegin, kEnd, kInstant };
  Kind kind = Kind::kBegin;
  uint32_t event = 0;
  int64_t time = 0;                        // the packet's timestamp
  int64_t end = 0;                         // kBegin: where the slice will end (clamped or not)
  bool clamped = false;                    // kBegin: end is before the recorded end
  uint32_t enclosing = TraceStore::kNone;  // kInstant: the innermost open slice
};

class TrackOrder {
 public:
  // Groups the events by track and sorts each track.
  void Build(const std::vector<TraceStore::Event>& events, size_t tracks);
  std::span<const uint32_t> Track(size_t track) const {
    return {order_.data() + begin_[track], begin_[track + 1] - begin_[track]};
  }

 private:
  // One track's sort key: (start ascending, end descending, slices before instants, file
  // order), formats.md §7.4's.
  struct Key {
    int64_t start;
    int64_t end;
    uint32_t index;
    bool instant;
  };
  static bool Before(const Key& a, const Key& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.end != b.end) return a.end > b.end;
    if (a.instant != b.instant) return b.instant;
    return a.index < b.index;
  }
  void SortTrack(uint32_t* first, uint32_t* last, const std::vector<TraceStore::Event>& events);

  std::vector<uint32_t> order_;
  std::vector<uint32_t> begin_;
  std::vector<Key> keys_, merged_;  // scratch: one track's keys
  std::vector<size_t> runs_;        // scratch: where each sorted run of keys_ starts
};

// Calls step(SweepStep) for one track in writing order.
template <class StepFn>
void SweepTrack(std::span<const uint32_t> order, const std::vector<TraceStore::Event>& events,
                StepFn&& step) {
  struct Open {
    uint32_t event;
    int64_t end;
  };
  std::vector<Open> open;
  auto close_until = [&](int64_t t) {
    while (!open.empty() && open.back().end <= t) {
      step(SweepStep{SweepStep::Kind::kEnd, open.back().event, open.back().end});
      open.pop_back();
    }
  };
  for (const uint32_t i : order) {
    const TraceStore::Event& e = events[i];
    close_until(e.start_ns);
    if (e.instant) {
      SweepStep s{SweepStep::Kind::kInstant, i, e.start_ns};
      if (!open.empty()) s.enclosing = open.back().event;
      step(s);
      continue;
    }
    SweepStep s{SweepStep::Kind::kBegin, i, e.start_ns, e.end_ns};
    if (!open.empty() && s.end > open.back().end) {
      s.end = open.back().end;
      s.clamped = true;
    }
    step(s);
    open.push_back({i, s.end});
  }
  close_until(INT64_MAX);
}

// Chrome flow end points ("f", instants that only end flows) bound to the slice that encloses
// each on its track, the kernel that starts there: the writer then puts the flow's end on that
// slice, as Perfetto wants it, and leaves the point out. Kept beside the store, one word per
// event, only while an input is written.
class FlowEndBindings {
 public:
  static constexpr uint32_t kLast = TraceStore::kNone - 1;  // a bound point, last of its slice's

  void Bind(const TrackOrder& order, size_t tracks, const std::vector<TraceStore::Event>& events);
  // A slice's first bound point (kNone: none); a bound point's next one (kLast: none).
  uint32_t First(uint32_t slice) const { return link_.empty() ? TraceStore::kNone : link_[slice]; }
  uint32_t Next(uint32_t point) const { return link_[point]; }
  bool IsBound(uint32_t point) const { return !link_.empty() && link_[point] != TraceStore::kNone; }

 private:
  std::vector<uint32_t> link_;
};

}  // namespace proton::viewer::traces
