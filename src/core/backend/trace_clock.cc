// Trace clock; see trace_clock.h.
#include "core/backend/trace_clock.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>

namespace proton {
namespace {

uint64_t RealtimeNs() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

std::atomic<TimestampFn> g_clock{&RealtimeNs};

}  // namespace

uint64_t TraceClockNs() { return g_clock.load(std::memory_order_acquire)(); }

void SetTraceClock(TimestampFn fn) {
  g_clock.store(fn != nullptr ? fn : &RealtimeNs, std::memory_order_release);
}

uint64_t TraceThreadId() {
  thread_local uint64_t id = static_cast<uint64_t>(syscall(SYS_gettid));
  return id;
}

}  // namespace proton
