// Flow ids for the merged trace: each input numbers its flows its own way (ours from 1, Triton
// main from 2^32), so the merge gives every flow a new id, unique in the merged file. Only
// flows with exactly one start and one end in their input are kept: an arrow needs both ends,
// and Perfetto joins every event that names an id into one flow.
#pragma once

#include <cstdint>
#include <vector>

#include "viewer/traces/trace_store.h"

namespace proton::viewer::traces {

struct FlowCounts {
  uint64_t kept = 0;     // flows renumbered
  uint64_t dropped = 0;  // ids left out (one end only, or repeated)
};

// Memory RenumberFlows reuses from one input to the next.
struct FlowScratch {
  struct End {  // one end of a flow: its id and where it is in TraceStore::flow_ids()
    uint64_t id;
    uint32_t position;
    bool start;
  };
  std::vector<End> ends;
  std::vector<uint8_t> tally;  // per id: starts (low 4 bits) and ends (high 4), saturated
  std::vector<uint32_t> rank;  // per id: how many kept ids come before it
};

// Rewrites store.flow_ids() in place: kept flows get next, next + 1, ... in the order of
// their old ids (advancing `next`), the others 0.
FlowCounts RenumberFlows(TraceStore& store, uint64_t& next, FlowScratch& scratch);

}  // namespace proton::viewer::traces
