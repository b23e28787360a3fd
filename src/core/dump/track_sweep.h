// Ordering the events of one Perfetto track so the track is valid (formats.md §7.4): packets
// in non-decreasing time, every slice begun and ended on its track, slices properly nested.
// Items (slices and instants) are sorted by (start asc, end desc, kind, ref) and swept with a
// stack of open slices' ends; a slice that would outlive the open slice around it (a partial
// overlap, e.g. PDL kernels on one stream) is clamped to that slice's end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace proton {

enum class TrackItemKind : uint8_t { kScope, kKernel, kLaunch };  // kLaunch: an instant

struct TrackItem {
  uint64_t start;
  uint64_t end;  // == start for instants; callers make it >= start
  uint32_t ref;  // index into the caller's events (scopes or kernels)
  uint32_t lane;
  TrackItemKind kind;
  bool instant() const { return kind == TrackItemKind::kLaunch; }
};

// Sorts `items` by lane, then in sweep order within each lane; returns the offsets of the
// lanes' ranges: lane k is items[offsets[k], offsets[k + 1]). `lanes`: the number of lanes.
std::vector<size_t> SortTrackItems(std::vector<TrackItem>& items, size_t lanes);

// Sweeps one lane's sorted items, calling on `visitor`:
//   Begin(const TrackItem&, bool clamped)  a slice begins (clamped: it will end before item.end)
//   End(uint64_t ts)                       the innermost open slice ends
//   Instant(const TrackItem&)
//   bool Stopped()                         true: stop (the output failed)
// Returns the number of clamped slices.
template <typename Visitor>
uint64_t SweepTrack(const TrackItem* first, const TrackItem* last, Visitor& visitor) {
  std::vector<uint64_t> open_ends;  // innermost last; nested, so non-increasing
  uint64_t clamped_slices = 0;
  for (const TrackItem* item = first; item != last && !visitor.Stopped(); ++item) {
    while (!open_ends.empty() && open_ends.back() <= item->start) {
      visitor.End(open_ends.back());
      open_ends.pop_back();
    }
    if (item->instant()) {
      visitor.Instant(*item);
      continue;
    }
    uint64_t end = item->end;
    bool clamped = !open_ends.empty() && end > open_ends.back();
    if (clamped) {
      end = open_ends.back();
      ++clamped_slices;
    }
    visitor.Begin(*item, clamped);
    open_ends.push_back(end);
  }
  while (!open_ends.empty() && !visitor.Stopped()) {
    visitor.End(open_ends.back());
    open_ends.pop_back();
  }
  return clamped_slices;
}

}  // namespace proton
