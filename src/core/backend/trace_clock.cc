// Trace clock; see trace_clock.h.
#include "core/backend/trace_clock.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace proton {

uint64_t RealtimeClockNs() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

uint64_t TraceThreadId() {
  thread_local uint64_t id = static_cast<uint64_t>(syscall(SYS_gettid));
  return id;
}

}  // namespace proton
