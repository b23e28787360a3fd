// The thread that writes completed phases as part files during the run (profiler.md §3.11,
// §5.14), so that neither launching threads nor the thread that advances phases ever waits
// for serialisation or the disk. It runs the session manager's WriteCompletedParts when woken,
// and again after a short pause while sealed phases still wait for their records.
#pragma once

#include <cstdint>

namespace proton {

// What the phase writer has written in this process, for benchmarks and tests.
struct PartWriteStats {
  uint64_t parts = 0;
  uint64_t bytes = 0;
  double seconds = 0;  // spent serialising and writing
};

class PhaseWriter {
 public:
  static PartWriteStats Stats();
  static void AddWritten(uint64_t bytes, double seconds);
  // Starts the thread in this process if it is not running (again after fork), then wakes it.
  static void Wake();
  // Returns once no part is being written (finalize writes the rest after that).
  static void WaitIdle();
  // How long the thread waits between checks while a sealed phase is incomplete.
  static constexpr int kPollMilliseconds = 20;
};

}  // namespace proton
