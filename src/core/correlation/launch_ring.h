// The launch path's lock-free store (profiler.md §7.4): a preallocated ring of slots indexed by
// correlation id, each holding one launch's capture targets. Written by the launching thread,
// consumed by the thread that applies the launch's records, walked by the phase writer and by
// finalize. Launches that do not fit (slot taken, too many sessions) go to LaunchMap instead.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "core/context/thread_context.h"
#include "core/correlation/launch_stamp.h"
#include "core/hot_flags.h"
#include "util/check.h"

namespace proton {

class LaunchRing {
 public:
  // 65536 slots of 128 bytes (8 MiB, allocated at the first launch): with 64 MiB activity
  // buffers delivered only when full or flushed, tens of thousands of launches can be in
  // flight; past that, launches take the slower map path. A slot starts a cache line, so a
  // launch into one session writes one line (the ring is always cold: every launch takes the
  // next slot).
  static constexpr size_t kSize = size_t{1} << 16;
  static constexpr size_t kInlineTargets = 2;
  // A slot's key: 0 = free, kBusy = a thread is writing or reading it, else the correlation id
  // stored there. Ids 0 and kBusy never use the ring.
  static constexpr uint64_t kBusy = UINT64_MAX;
  // Slot targets point at their data without owning it (Correlator::MakeData). A launch with
  // an unknown record count (remaining 0) keeps its slot until the next flush, or until a
  // launch kSize ids later reclaims it.
  struct alignas(64) Slot {
    std::atomic<uint64_t> key{0};
    uint32_t remaining = 0;
    uint32_t count = 0;
    CaptureTarget targets[kInlineTargets];
    // Written only while trace data exists, in the slot's second line: tree sessions' launches
    // touch one line. Valid when its correlation id is the slot's launch.
    LaunchStamp stamp;
  };

  static bool Fits(uint64_t id) { return id != 0 && id != kBusy; }

  // Launching thread: the slot of `id`, held (kBusy), or nullptr when another launch still
  // owns it (the ring wrapped). `id` must fit.
  Slot* TakeForLaunch(uint64_t id) {
    Slot& slot = Ring()[id & (kSize - 1)];
    return TakeSlot(slot) ? &slot : nullptr;
  }
  // Hands back a slot this thread holds with `key`: 0 frees it, a correlation id stores the
  // launch there. Only the holder moves a slot out of kBusy (checked in debug).
  static void Release(Slot& slot, uint64_t key) {
    PROTON_DCHECK(key != kBusy) << "a held slot is handed back still busy";
    PROTON_DCHECK(slot.key.load(std::memory_order_relaxed) == kBusy)
        << "slot handed back by a thread that does not hold it (key "
        << slot.key.load(std::memory_order_relaxed) << ")";
    slot.key.store(key, std::memory_order_release);
  }
  // A launch with an unknown record count went into the ring: AfterFlush must free it.
  void NoteUnknownCount() { unknown_count_.store(true, std::memory_order_relaxed); }

  // Consumes one of the records expected for `id` if the ring holds its launch: calls
  // apply(targets, count, stamp) while the slot is held (its data references stay alive meanwhile),
  // and frees the slot after the last record. False when the ring does not hold `id`.
  template <typename ApplyFn>
  bool Consume(uint64_t id, ApplyFn&& apply);

  // Phase completion: counts, per data, the targets of every busy slot.
  void CollectData(std::unordered_map<const Data*, size_t>* out);
  // After a flush: frees the slots of launches whose record count was unknown.
  void AfterFlush();
  // Frees every slot. `after_fork`: slots held by threads that did not survive the fork are
  // taken instead of waited for.
  void Clear(bool after_fork);
  // Drops, from every busy slot, the targets whose data `is_retired` (their records are then
  // counted but applied nowhere).
  template <typename Pred>
  void DropTargets(Pred&& is_retired);
  size_t Occupied() const;  // tests: launches stored in the ring

 private:
  Slot* Ring();
  Slot* Existing() const { return ring_ptr_.load(std::memory_order_acquire); }
  // Takes `slot` for a new launch (key kBusy): free, or held by an unknown-count launch.
  static bool TakeSlot(Slot& slot);
  // Takes `slot` (kBusy) unless it is free; waits while another thread holds it. Returns the
  // key it had (0: free, not taken).
  static uint64_t HoldUnlessFree(Slot& slot);

  std::once_flag once_;
  std::unique_ptr<Slot[]> ring_;  // allocated at the first launch
  std::atomic<Slot*> ring_ptr_{nullptr};
  std::atomic<bool> unknown_count_{false};
};

inline LaunchRing::Slot* LaunchRing::Ring() {
  Slot* ring = Existing();
  if (ring != nullptr) return ring;
  std::call_once(once_, [this] {
    ring_ = std::make_unique<Slot[]>(kSize);
    ring_ptr_.store(ring_.get(), std::memory_order_release);
  });
  return Existing();
}

inline bool LaunchRing::TakeSlot(Slot& slot) {
  uint64_t key = 0;
  // seq_cst (the same instruction as acquire on x86): the launch's later read of the session
  // epoch must not pass this store, or CollectDataInFlight, which bumps the epoch before it
  // reads the slots, could miss a launch that still captures into a sealed phase.
  if (slot.key.compare_exchange_strong(key, kBusy, std::memory_order_seq_cst)) return true;
  if (key == kBusy) return false;
  // Held by a launch kSize ids ago. One whose record count is known still waits for its
  // records; one whose count is unknown (a graph instantiated before profiling) is never
  // freed by its records, so it is reclaimed here: that keeps such replays, which may run
  // for ever without a flush, within the preallocated ring (§3.8: no memory growth).
  if (!slot.key.compare_exchange_strong(key, kBusy, std::memory_order_acquire)) return false;
  if (slot.remaining == 0) return true;
  Release(slot, key);
  return false;
}

template <typename ApplyFn>
bool LaunchRing::Consume(uint64_t id, ApplyFn&& apply) {
  Slot* ring = Existing();
  if (ring == nullptr || !Fits(id)) return false;
  Slot& slot = ring[id & (kSize - 1)];
  uint64_t key = id;
  while (!slot.key.compare_exchange_weak(key, kBusy, std::memory_order_acquire)) {
    if (key != kBusy && key != id) return false;  // not in the ring: maybe in the map
    key = id;                                     // another thread holds the slot for a moment
  }
  PROTON_DCHECK(slot.count <= kInlineTargets) << "slot of launch " << id;
  // remaining 0: unknown count; the slot stays until reclaimed or the next flush.
  bool last = slot.remaining == 1;
  if (slot.remaining > 1) --slot.remaining;
  LaunchStamp stamp;
  if ((g_hot.launch_extras.load(std::memory_order_relaxed) & kLaunchExtraTrace) &&
      slot.stamp.correlation_id == id) {
    stamp = slot.stamp;
  }
  apply(slot.targets, static_cast<size_t>(slot.count), stamp);
  Release(slot, last ? 0 : id);
  return true;
}

template <typename Pred>
void LaunchRing::DropTargets(Pred&& is_retired) {
  Slot* ring = Existing();
  if (ring == nullptr) return;
  for (size_t i = 0; i < kSize; ++i) {
    Slot& slot = ring[i];
    uint64_t key = HoldUnlessFree(slot);
    if (key == 0) continue;
    uint32_t kept = 0;
    for (uint32_t t = 0; t < slot.count && t < kInlineTargets; ++t) {
      if (!is_retired(slot.targets[t].data)) slot.targets[kept++] = slot.targets[t];
    }
    slot.count = kept;  // 0: its records still arrive, are counted, and go nowhere
    Release(slot, key);
  }
}

}  // namespace proton
