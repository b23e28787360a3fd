// The thread that writes completed phases as part files during the run (profiler.md §3.11,
// §5.14), so that neither launching threads nor the thread that advances phases ever waits
// for serialisation or the disk. The runtime owns one (runtime.h); its thread runs the work
// it was given (the session manager's WriteCompletedParts) when woken, and again after a
// short pause while sealed phases still wait for their records.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>

#include "core/fork_guard.h"

namespace proton {

// What the phase writers have written in this process, for benchmarks and tests.
struct PartWriteStats {
  uint64_t parts = 0;
  uint64_t bytes = 0;
  double seconds = 0;  // spent serialising and writing
};

class PhaseWriter {
 public:
  // `work` returns true while a sealed phase still waits for its records (poll again).
  explicit PhaseWriter(std::function<bool()> work);
  // Stops and joins this process's thread (a forked child's copy of the parent's is abandoned).
  ~PhaseWriter();
  PhaseWriter(const PhaseWriter&) = delete;
  PhaseWriter& operator=(const PhaseWriter&) = delete;

  static PartWriteStats Stats();
  static void AddWritten(uint64_t bytes, double seconds);
  // Starts the thread in this process if it is not running (again after fork), then wakes it.
  void Wake();
  // Returns once no part is being written (finalize writes the rest after that).
  void WaitIdle();
  // How long the thread waits between checks while a sealed phase is incomplete.
  static constexpr int kPollMilliseconds = 20;

  struct State;

 private:
  State* StateForThisProcess(bool start) PROTON_EXCLUDES(start_mutex_);

  const std::function<bool()> work_;
  // One state per process: a forked child gets a fresh one (the parent's thread did not
  // survive the fork, and its mutex may have been held at that moment).
  ForkGuardedMutex start_mutex_{LockRank::kPhaseWriter};
  State* state_ PROTON_GUARDED_BY(start_mutex_) = nullptr;
  pid_t state_pid_ PROTON_GUARDED_BY(start_mutex_) = 0;
};

}  // namespace proton
