// The .chrome_trace writer (formats.md §4.2, §6): one compact object holding every kernel
// event, stream by stream in ascending stream id, each stream in recording order; ts relative
// to the earliest start. An empty trace writes nothing.
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
