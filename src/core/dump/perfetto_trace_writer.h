// The .perfetto_trace writer (formats.md §7): the content of our .chrome_trace as a Perfetto
// protobuf trace. A clock snapshot (REALTIME primary, BOOTTIME beside it), the sequence start
// (REALTIME as the packets' default clock, the event categories), the process track and one
// track per lane, then each lane's events in time order, properly nested (track_sweep.h):
// scope slices with their metrics, kernel slices with call stack and metrics, launch instants
// with a flow to their kernel. Timestamps are the recorded CLOCK_REALTIME ns, unchanged; names
// are interned (a cache per context node, so no string is hashed per kernel event). Output
// goes to the sink in ~1 MiB chunks; memory is the sort keys of the events plus the caches.
#pragma once

#include <cstdint>
#include <string>

#include "core/data/trace_data.h"
#include "core/dump/node_metrics.h"

namespace proton {

struct PerfettoTraceOptions {
  int64_t pid = 0;           // the process track's pid; 0: this process (getpid)
  uint64_t realtime_ns = 0;  // the clock snapshot; both 0: read the clocks now
  uint64_t boottime_ns = 0;
};

struct PerfettoTraceStats {
  uint64_t clamped_slices = 0;  // slices cut to their enclosing slice's end (formats.md §7.4)
  uint64_t packets = 0;
};

// Appends the file to `out`, or streams it to `chunk_sink` in chunks (WriteOptions::chunk_sink).
// Call with the data's lock held.
PerfettoTraceStats WritePerfettoTrace(const TraceData& data, std::string& out,
                                      const ChunkSink* chunk_sink = nullptr,
                                      const PerfettoTraceOptions& options = {});

}  // namespace proton
