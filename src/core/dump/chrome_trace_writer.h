// The .chrome_trace writer (formats.md §4.4, §6): one compact JSON document in Triton 3.7+'s
// layout. `baseTimeNanoseconds` is the earliest timestamp of the trace and every ts/dur is in
// µs relative to it. Events in order: metadata naming the process and the lanes (CPU threads,
// GPU streams, CUDA-graph streams), kernel events (lane by lane, each in start order; the 3.6
// fields plus pid and args.metrics), CPU scope events, scope-metric events, then the
// launch->kernel flows. A trace without events is {"baseTimeNanoseconds":0,...,"traceEvents":[]}.
#pragma once

#include <string>

#include "core/data/trace_data.h"
#include "core/dump/node_metrics.h"

namespace proton {

// Appends the file text to `out`. Call with the data's lock held.
// With `chunk_sink`, the text goes there in chunks instead (see WriteOptions::chunk_sink).
void WriteChromeTrace(const TraceData& data, std::string& out,
                      const ChunkSink* chunk_sink = nullptr);

}  // namespace proton
