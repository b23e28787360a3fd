// Process-wide flags that every launch reads, together in one cache line: between two
// launches the application evicts our state, and each line a launch reads costs a cache miss
// (the shadow-context overhead of profiler.md §7.4; bench/core/RESULTS.md counts them).
#pragma once

#include <atomic>
#include <cstdint>

namespace proton {

struct alignas(64) HotFlags {
  // Bumped whenever the session list, a session's active flag or its data's generation
  // changes. Application threads keep copies of those (thread_context.cc) and check only this
  // counter on the launch path.
  std::atomic<uint64_t> session_epoch{1};
  // Event recording (core/record): -1 not decided yet (PROTON_RECORD is read at first use),
  // 0 off, 1 on.
  std::atomic<int> recording{-1};
  // Nonzero when a launch has more to do than capture (kLaunchExtra* bits): the launch path
  // tests this one word, so sessions without extras pay no instruction for them.
  std::atomic<uint32_t> launch_extras{1};
  // The process-wide runtime's command-line mode (Runtime::command_line_mode), copied here
  // because every scope enter tests it (MaybeStartCliSessionLazily) and this line is read
  // there anyway: the runtime object's line would be one more.
  std::atomic<bool> command_line_mode{false};
};

// launch_extras bits. Recording: on, or not decided yet (the recorder keeps this bit).
// Trace: some trace data exists, whose sessions stamp each launch (TraceData keeps this bit).
inline constexpr uint32_t kLaunchExtraRecording = 1;
inline constexpr uint32_t kLaunchExtraTrace = 2;

inline HotFlags g_hot;

}  // namespace proton
