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

// One end of a flow: its id and where it is in TraceStore::flow_ids().
struct FlowEnd {
  uint64_t id;
  uint32_t position;
  bool start;
};

// Rewrites store.flow_ids() in place: kept flows get next, next + 1, ... (advancing `next`),
// the others 0. `scratch` is reused memory.
FlowCounts RenumberFlows(TraceStore& store, uint64_t& next, std::vector<FlowEnd>& scratch);

}  // namespace proton::viewer::traces
