// Chrome-trace JSON (formats.md §4, §6) streamed through a TraceInput window into the event
// model: Triton 3.6's lines of {"displayTimeUnit","traceEvents"} documents (one per stream,
// relative times), the bare list of events, and 3.7+'s and our single object with metadata,
// scopes, flows and, in recent files, baseTimeNanoseconds (absolute times). The document is
// read once, front to back; memory is the window plus one event.
#pragma once

#include "util/status.h"
#include "viewer/traces/trace_input.h"
#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

// Errors name the file: "cannot read 'F': invalid JSON at byte N: <what>", "cannot read 'F':
// the trace ends early (truncated at byte N)", "'F' is a Proton tree profile, not a trace",
// "cannot read 'F': <what is wrong with an event> (event N)"; and whatever the visitor returns.
Status ReadChromeTrace(TraceInput& input, TraceVisitor& visitor);

}  // namespace proton::viewer::traces
