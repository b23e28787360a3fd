// Sorting track items; see track_sweep.h.
#include "core/dump/track_sweep.h"

#include <algorithm>

namespace proton {

std::vector<size_t> SortTrackItems(std::vector<TrackItem>& items, size_t lanes) {
  // One sort on the whole key: kernel records arrive mostly in start order per stream, so
  // the runs are long and the sort is cheap next to writing the packets.
  std::sort(items.begin(), items.end(), [](const TrackItem& a, const TrackItem& b) {
    if (a.lane != b.lane) return a.lane < b.lane;
    if (a.start != b.start) return a.start < b.start;
    if (a.end != b.end) return a.end > b.end;  // the enclosing slice first
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.ref < b.ref;
  });
  std::vector<size_t> offsets(lanes + 1, items.size());
  size_t at = 0;
  for (size_t lane = 0; lane < lanes; ++lane) {
    while (at < items.size() && items[at].lane < lane) ++at;
    offsets[lane] = at;
  }
  return offsets;
}

}  // namespace proton
