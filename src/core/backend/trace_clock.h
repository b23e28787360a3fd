// The clock and thread ids of trace data's CPU events (profiler.md §3.10, design.md): scope
// and launch times are read from the running backend's clock, so that they share the time
// line of the kernel records; lanes are keyed by the OS thread id.
#pragma once

#include <cstdint>

#include "core/backend/backend.h"

namespace proton {

// Now, in ns: the installed backend clock, else CLOCK_REALTIME (CUPTI's default clock).
uint64_t TraceClockNs();
// Installs `fn` (nullptr: the default). Called when a backend starts and stops.
void SetTraceClock(TimestampFn fn);
// The calling thread's OS id (gettid), cached per thread.
uint64_t TraceThreadId();

}  // namespace proton
