// LaunchRing's walks over every slot; see launch_ring.h. None runs per launch.
#include "core/correlation/launch_ring.h"

namespace proton {

uint64_t LaunchRing::HoldUnlessFree(Slot& slot) {
  uint64_t key = slot.key.load(std::memory_order_acquire);
  while (key != 0) {
    if (key == kBusy) {  // a launch or record in progress: wait for it
      key = slot.key.load(std::memory_order_acquire);
      continue;
    }
    if (slot.key.compare_exchange_weak(key, kBusy, std::memory_order_acquire)) return key;
  }
  return 0;
}

void LaunchRing::CollectData(std::unordered_map<const Data*, size_t>* out) {
  Slot* ring = Existing();
  if (ring == nullptr) return;
  for (size_t i = 0; i < kSize; ++i) {
    Slot& slot = ring[i];
    // seq_cst, like the launch's slot store and the epoch bump before this walk.
    if (slot.key.load(std::memory_order_seq_cst) == 0) continue;
    uint64_t key = HoldUnlessFree(slot);
    if (key == 0) continue;
    for (uint32_t t = 0; t < slot.count; ++t) ++(*out)[slot.targets[t].data];
    Release(slot, key);
  }
}

void LaunchRing::AfterFlush() {
  if (!unknown_count_.exchange(false, std::memory_order_relaxed)) return;
  Slot* ring = Existing();
  if (ring == nullptr) return;
  for (size_t i = 0; i < kSize; ++i) {
    Slot& slot = ring[i];
    uint64_t key = slot.key.load(std::memory_order_acquire);
    if (key == 0 || key == kBusy) continue;
    if (!slot.key.compare_exchange_strong(key, kBusy, std::memory_order_acquire)) continue;
    Release(slot, slot.remaining == 0 ? 0 : key);
  }
}

void LaunchRing::Clear(bool after_fork) {
  Slot* ring = Existing();
  if (ring == nullptr) return;
  for (size_t i = 0; i < kSize; ++i) {
    Slot& slot = ring[i];
    // In a forked child the thread that held a slot did not survive the fork: take it.
    if (!after_fork) HoldUnlessFree(slot);
    slot.count = 0;  // the targets stay: nothing reads a free slot's (Correlator::MakeData)
    slot.key.store(0, std::memory_order_release);
  }
}

size_t LaunchRing::Occupied() const {
  size_t in_ring = 0;
  if (Slot* ring = Existing()) {
    for (size_t i = 0; i < kSize; ++i) {
      uint64_t key = ring[i].key.load(std::memory_order_acquire);
      if (key != 0 && key != kBusy) ++in_ring;
    }
  }
  return in_ring;
}

}  // namespace proton
