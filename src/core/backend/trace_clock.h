// The clock and thread ids of trace data's CPU events (profiler.md §3.10, design.md): scope
// and launch times are read from the running backend's clock, so that they share the time
// line of the kernel records; lanes are keyed by the OS thread id.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/backend/backend.h"

namespace proton {

// CLOCK_REALTIME in ns (CUPTI's default clock): the clock while no backend runs.
uint64_t RealtimeClockNs();

// One runtime's clock (src/core/runtime/runtime.h owns it). Thread: Now from any thread;
// Install from the session manager when its backend starts and stops.
class TraceClock {
 public:
  uint64_t Now() const { return fn_.load(std::memory_order_acquire)(); }
  // Installs `fn` (nullptr: the default).
  void Install(TimestampFn fn) {
    fn_.store(fn != nullptr ? fn : &RealtimeClockNs, std::memory_order_release);
  }

 private:
  std::atomic<TimestampFn> fn_{&RealtimeClockNs};
};

// Now, in ns, on the process runtime's clock (runtime.cc): the installed backend clock, else
// CLOCK_REALTIME.
uint64_t TraceClockNs();
// The calling thread's OS id (gettid), cached per thread.
uint64_t TraceThreadId();

}  // namespace proton
