// Data loss of the correlation (profiler.md §5.5): records dropped, incomplete or unknown,
// launches no session captured, PC samples with no launch left. Counted on any thread (relaxed
// atomics: each counter is only ever summed), reported once at finalize as one warning line.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "core/backend/backend.h"

namespace proton {

struct LossCounters {
  uint64_t dropped = 0;
  uint64_t incomplete = 0;
  uint64_t unknown = 0;                  // records whose correlation id we never stored
  uint64_t uncorrelated_launches = 0;    // launches while no session was active (expected unknowns)
  uint64_t pc_samples_unattributed = 0;  // PC-sample batches whose launch state was gone
};

class LossAccounting {
 public:
  void AddLost(RecordLoss why, uint64_t count);
  void AddIncomplete() { Add(incomplete_, 1); }
  void AddUnknown() { Add(unknown_, 1); }
  void AddUncorrelatedLaunch() { Add(uncorrelated_launches_, 1); }
  void AddPcSamplesUnattributed() { Add(pc_samples_unattributed_, 1); }
  LossCounters Snapshot() const;
  void Clear();
  // The one-line loss warning for the counters so far ("" when nothing was lost).
  std::string Warning() const;

 private:
  static void Add(std::atomic<uint64_t>& counter, uint64_t n) {
    counter.fetch_add(n, std::memory_order_relaxed);
  }

  std::atomic<uint64_t> dropped_{0};
  std::atomic<uint64_t> incomplete_{0};
  std::atomic<uint64_t> unknown_{0};
  std::atomic<uint64_t> uncorrelated_launches_{0};
  std::atomic<uint64_t> pc_samples_unattributed_{0};
};

}  // namespace proton
