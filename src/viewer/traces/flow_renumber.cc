// See flow_renumber.h. Files number their flows densely (ours 1..N, Triton main 2^32 + its
// event ids): ids within a range of a few times their count are tallied in arrays indexed by
// id (5 bytes per id); others are sorted as (id, position) pairs (16 bytes per end). No hash
// map either way.
#include "viewer/traces/flow_renumber.h"

#include <algorithm>
#include <vector>

namespace proton::viewer::traces {
namespace {

constexpr uint8_t kOneStartOneEnd = 0x11;

void Tally(uint8_t& t, bool start) {
  const int shift = start ? 0 : 4;
  if (((t >> shift) & 0xf) != 0xf) t = static_cast<uint8_t>(t + (1 << shift));
}

// Calls fn(position, id, start) for every flow end of every event.
template <class Fn>
void ForEachEnd(const TraceStore& store, const std::vector<uint64_t>& ids, Fn&& fn) {
  for (const TraceStore::Event& e : store.events()) {
    for (uint32_t k = 0; k < e.flows_out + e.flows_in; ++k) {
      fn(e.flows + k, ids[e.flows + k], k < e.flows_out);
    }
  }
}

// Ids in [lo, lo + range): tallied and ranked in arrays indexed by id, then every end
// rewritten; no list of the ends is built.
FlowCounts Dense(TraceStore& store, uint64_t lo, size_t range, uint64_t& next, FlowScratch& s) {
  std::vector<uint64_t>& ids = store.flow_ids();
  s.tally.assign(range, 0);
  ForEachEnd(store, ids,
             [&](uint32_t, uint64_t id, bool start) { Tally(s.tally[id - lo], start); });
  s.rank.resize(range);
  FlowCounts counts;
  uint32_t kept = 0;
  for (size_t k = 0; k < range; ++k) {
    s.rank[k] = kept;
    if (s.tally[k] == kOneStartOneEnd) {
      ++kept;
    } else if (s.tally[k] != 0) {
      ++counts.dropped;
    }
  }
  counts.kept = kept;
  ForEachEnd(store, ids, [&](uint32_t position, uint64_t id, bool) {
    const size_t k = id - lo;
    ids[position] = s.tally[k] == kOneStartOneEnd ? next + s.rank[k] : 0;
  });
  next += kept;
  return counts;
}

FlowCounts Sorted(std::vector<uint64_t>& ids, uint64_t& next, FlowScratch& s) {
  std::sort(s.ends.begin(), s.ends.end(), [](const FlowScratch::End& a, const FlowScratch::End& b) {
    return a.id != b.id ? a.id < b.id : a.position < b.position;
  });
  FlowCounts counts;
  for (size_t i = 0; i < s.ends.size();) {
    size_t j = i;
    size_t starts = 0;
    while (j < s.ends.size() && s.ends[j].id == s.ends[i].id) starts += s.ends[j++].start ? 1 : 0;
    const bool keep = j - i == 2 && starts == 1;
    const uint64_t id = keep ? next++ : 0;
    for (size_t k = i; k < j; ++k) ids[s.ends[k].position] = id;
    ++(keep ? counts.kept : counts.dropped);
    i = j;
  }
  return counts;
}

}  // namespace

FlowCounts RenumberFlows(TraceStore& store, uint64_t& next, FlowScratch& s) {
  std::vector<uint64_t>& ids = store.flow_ids();
  uint64_t lo = UINT64_MAX, hi = 0;
  size_t count = 0;
  ForEachEnd(store, ids, [&](uint32_t, uint64_t id, bool) {
    lo = std::min(lo, id);
    hi = std::max(hi, id);
    ++count;
  });
  if (count == 0) return FlowCounts();
  if (hi - lo < 4 * count + 1024) return Dense(store, lo, hi - lo + 1, next, s);
  s.ends.clear();
  s.ends.reserve(count);
  ForEachEnd(store, ids, [&](uint32_t position, uint64_t id, bool start) {
    s.ends.push_back({id, position, start});
  });
  return Sorted(ids, next, s);
}

}  // namespace proton::viewer::traces
