// Perfetto protobuf traces (formats.md §7; Triton main's layout too) streamed packet by
// packet through a TraceInput window into the event model: the TrackEvent subset our
// profiler and Triton write (slice begin/end pairs per track, instants, flows, interned
// names, debug annotations), on the clock each packet names (absolute when it is REALTIME,
// or when a clock snapshot relates it to REALTIME).
#pragma once

#include "util/status.h"
#include "viewer/traces/trace_input.h"
#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

// Errors name the file: "cannot read 'F': <what> (packet at byte N)", "cannot read 'F': the
// trace ends early (truncated at byte N)"; and whatever the visitor returns.
Status ReadPerfettoTrace(TraceInput& input, TraceVisitor& visitor);

}  // namespace proton::viewer::traces
