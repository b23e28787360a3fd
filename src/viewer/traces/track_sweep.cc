// See track_sweep.h.
#include "viewer/traces/track_sweep.h"

#include <algorithm>

namespace proton::viewer::traces {

void TrackOrder::Build(const std::vector<TraceStore::Event>& events, size_t tracks) {
  begin_.assign(tracks + 1, 0);
  for (const TraceStore::Event& e : events) ++begin_[e.track + 1];
  for (size_t t = 0; t < tracks; ++t) begin_[t + 1] += begin_[t];
  order_.resize(events.size());
  std::vector<uint32_t> fill(begin_.begin(), begin_.end() - 1);
  for (uint32_t i = 0; i < events.size(); ++i) order_[fill[events[i].track]++] = i;
  const auto before = [&](uint32_t a, uint32_t b) {
    const TraceStore::Event& x = events[a];
    const TraceStore::Event& y = events[b];
    if (x.start_ns != y.start_ns) return x.start_ns < y.start_ns;
    if (x.end_ns != y.end_ns) return x.end_ns > y.end_ns;
    return a < b;
  };
  for (size_t t = 0; t < tracks; ++t) {
    const auto first = order_.begin() + begin_[t];
    const auto last = order_.begin() + begin_[t + 1];
    // Files list most lanes in start order already.
    if (!std::is_sorted(first, last, before)) std::sort(first, last, before);
  }
}

void BindFlowEnds(const TrackOrder& order, size_t tracks, std::vector<TraceStore::Event>& events) {
  for (size_t t = 0; t < tracks; ++t) {
    SweepTrack(order.Track(t), events, [&](const SweepStep& s) {
      if (s.kind != SweepStep::Kind::kInstant || s.enclosing == TraceStore::kNone) return;
      TraceStore::Event& point = events[s.event];
      if (point.kind != EventKind::kFlow || point.flows_in == 0 || point.flows_out != 0) return;
      TraceStore::Event& slice = events[s.enclosing];
      point.bound = true;
      point.link = slice.link;
      slice.link = s.event;
    });
  }
}

}  // namespace proton::viewer::traces
