// The launches the ring cannot hold (launch_ring.h): more than LaunchRing::kSize in flight,
// more sessions than a slot has targets, or correlation ids the ring never uses. A locked map
// from correlation id to the launch's targets; its entries own their data. Written by the
// launching thread, consumed by the thread that applies records, walked at phase completion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/context/thread_context.h"
#include "core/correlation/launch_stamp.h"
#include "core/fork_guard.h"

namespace proton {

class LaunchMap {
 public:
  // Launching thread, before its capture reads the session epoch: the entry exists during the
  // capture, so CollectData waits for a capture that may still go into a sealed phase.
  void BeginCapture(uint64_t id, uint32_t expected_records) PROTON_EXCLUDES(mutex_);
  // Stores the capture's targets (keeping their data alive); returns false, dropping the
  // entry, when there is none (no active session).
  bool EndCapture(uint64_t id, std::vector<CaptureTarget> targets, uint32_t expected_records,
                  const LaunchStamp& stamp) PROTON_EXCLUDES(mutex_);

  // Consumes one of the records expected for `id`: calls apply(targets, count, stamp) outside the
  // lock (the data kept alive meanwhile), and frees the entry after its last record. False
  // when the map does not hold `id`.
  template <typename ApplyFn>
  bool Consume(uint64_t id, ApplyFn&& apply) PROTON_EXCLUDES(mutex_);

  // Phase completion: counts, per data, the targets of every entry, after waiting for the
  // captures under way.
  void CollectData(std::unordered_map<const Data*, size_t>* out) PROTON_EXCLUDES(mutex_);
  // A buffer covering every id up to `covered` completed: past a bound, frees the unknown-count
  // entries it covers.
  void TrimUnknownCount(uint64_t covered) PROTON_EXCLUDES(mutex_);
  // After a flush: frees the entries whose record count was unknown.
  void AfterFlush() PROTON_EXCLUDES(mutex_);
  void Clear() PROTON_EXCLUDES(mutex_);
  size_t size() PROTON_EXCLUDES(mutex_);

 private:
  struct Entry {
    std::vector<CaptureTarget> targets;
    std::vector<std::shared_ptr<Data>> owners;  // keep the targets' data alive
    uint32_t remaining;                         // 0 = unknown (graph instantiated before profiling)
    bool capturing = false;                     // made by a launch whose capture has not finished
    LaunchStamp stamp;
  };
  void EraseUnknownCountLocked(uint64_t id) PROTON_REQUIRES(mutex_);

  ForkGuardedMutex mutex_{LockRank::kCorrelator};
  std::unordered_map<uint64_t, Entry> entries_ PROTON_GUARDED_BY(mutex_);
  std::vector<uint64_t> unknown_count_ids_ PROTON_GUARDED_BY(mutex_);
};

template <typename ApplyFn>
bool LaunchMap::Consume(uint64_t id, ApplyFn&& apply) {
  std::vector<CaptureTarget> targets;
  std::vector<std::shared_ptr<Data>> owners;  // alive while applied outside the lock
  LaunchStamp stamp;
  bool last = false;
  {
    ForkGuardedLock lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return false;
    Entry& entry = it->second;
    last = entry.remaining == 1;
    if (entry.remaining > 1) --entry.remaining;
    // The last record's entry stays until it is applied: its phase is not complete before.
    targets = entry.targets;
    owners = entry.owners;
    stamp = entry.stamp;
  }
  apply(targets.data(), targets.size(), stamp);
  if (last) {
    ForkGuardedLock lock(mutex_);
    entries_.erase(id);
  }
  return true;
}

}  // namespace proton
