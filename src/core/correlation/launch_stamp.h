// The CPU side of a launch that trace sessions draw as the start of a launch->kernel flow
// (formats.md §6): when and on which thread. The correlator keeps it with the launch's
// capture targets (in the ring slot or the map entry) and hands it to the kernel's records,
// so trace data needs no lock and no table of its own on the launch path.
#pragma once

#include <cstdint>

#include "core/backend/trace_clock.h"

namespace proton {

struct LaunchStamp {
  uint64_t correlation_id = 0;  // 0: not stamped (no trace data when the launch was captured)
  uint64_t ns = 0;              // the trace clock (trace_clock.h)
  uint64_t thread = 0;          // OS thread id
};

// A stamp of the calling thread's launch `correlation_id` now.
inline LaunchStamp StampLaunch(uint64_t correlation_id) {
  return LaunchStamp{correlation_id, TraceClockNs(), TraceThreadId()};
}

}  // namespace proton
