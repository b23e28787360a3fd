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
  for (size_t t = 0; t < tracks; ++t) {
    SortTrack(order_.data() + begin_[t], order_.data() + begin_[t + 1], events);
  }
}

// A track's events come as a few sorted runs (a Chrome lane: its slices in start order, then
// the flow points that fall on it): the runs are found and merged pairwise, which is linear
// for a few runs; many runs (an unordered file) are sorted. Keys are copied out first, so the
// comparisons read one array in order instead of the events at random.
void TrackOrder::SortTrack(uint32_t* first, uint32_t* last,
                           const std::vector<TraceStore::Event>& events) {
  const size_t n = static_cast<size_t>(last - first);
  keys_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const TraceStore::Event& e = events[first[i]];
    keys_[i] = {e.start_ns, e.end_ns, first[i], e.instant};
  }
  runs_.clear();
  for (size_t i = 0; i < n; ++i) {
    if (i == 0 || Before(keys_[i], keys_[i - 1])) runs_.push_back(i);
  }
  if (runs_.size() > 64) {
    std::sort(keys_.begin(), keys_.end(), Before);
  } else {
    merged_.resize(n);
    while (runs_.size() > 1) {
      std::vector<size_t> next;
      for (size_t r = 0; r < runs_.size(); r += 2) {
        const size_t a = runs_[r];
        const size_t b = r + 1 < runs_.size() ? runs_[r + 1] : n;
        const size_t c = r + 2 < runs_.size() ? runs_[r + 2] : n;
        const Key* keys = keys_.data();
        std::merge(keys + a, keys + b, keys + b, keys + c, merged_.data() + a, Before);
        next.push_back(a);
      }
      keys_.swap(merged_);
      runs_.swap(next);
    }
  }
  for (size_t i = 0; i < n; ++i) first[i] = keys_[i].index;
}

void FlowEndBindings::Bind(const TrackOrder& order, size_t tracks,
                           const std::vector<TraceStore::Event>& events) {
  link_.clear();
  // Only Chrome traces have end points; a Perfetto input needs no array (memory is tightest
  // for them: their files are the densest).
  const auto is_point = [](const TraceStore::Event& e) {
    return e.instant && e.kind == EventKind::kFlow && e.flows_in != 0 && e.flows_out == 0;
  };
  if (std::none_of(events.begin(), events.end(), is_point)) return;
  link_.assign(events.size(), TraceStore::kNone);
  for (size_t t = 0; t < tracks; ++t) {
    SweepTrack(order.Track(t), events, [&](const SweepStep& s) {
      if (s.kind != SweepStep::Kind::kInstant || s.enclosing == TraceStore::kNone) return;
      if (!is_point(events[s.event])) return;
      const uint32_t first = link_[s.enclosing];
      link_[s.event] = first == TraceStore::kNone ? kLast : first;
      link_[s.enclosing] = s.event;
    });
  }
}

}  // namespace proton::viewer::traces
