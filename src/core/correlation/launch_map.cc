// LaunchMap; see launch_map.h.
#include "core/correlation/launch_map.h"

#include <thread>
#include <utility>

namespace proton {

void LaunchMap::BeginCapture(uint64_t id, uint32_t expected_records) {
  ForkGuardedLock lock(mutex_);
  entries_[id] = Entry{{}, {}, expected_records, /*capturing=*/true, LaunchStamp{}};
}

bool LaunchMap::EndCapture(uint64_t id, std::vector<CaptureTarget> targets,
                           uint32_t expected_records, const LaunchStamp& stamp) {
  // The capturing thread's context cache owns the data until its next refresh: take our own
  // share, outside the lock.
  std::vector<std::shared_ptr<Data>> owners;
  owners.reserve(targets.size());
  for (const CaptureTarget& target : targets) owners.push_back(target.data->shared_from_this());
  ForkGuardedLock lock(mutex_);
  if (targets.empty()) {
    entries_.erase(id);
    return false;
  }
  entries_[id] = Entry{std::move(targets), std::move(owners), expected_records, false, stamp};
  if (expected_records == 0) unknown_count_ids_.push_back(id);
  return true;
}

void LaunchMap::CollectData(std::unordered_map<const Data*, size_t>* out) {
  std::vector<uint64_t> capturing;
  {
    ForkGuardedLock lock(mutex_);
    for (const auto& [id, entry] : entries_) {
      if (entry.capturing) capturing.push_back(id);
      for (const CaptureTarget& target : entry.targets) ++(*out)[target.data];
    }
  }
  // Captures that began before the caller's epoch bump: each finishes in a moment (later ones
  // capture into the current phase and are not waited for).
  for (uint64_t id : capturing) {
    while (true) {
      {
        ForkGuardedLock lock(mutex_);
        auto it = entries_.find(id);
        if (it == entries_.end() || !it->second.capturing) {
          if (it != entries_.end()) {
            for (const CaptureTarget& target : it->second.targets) ++(*out)[target.data];
          }
          break;
        }
      }
      std::this_thread::yield();
    }
  }
}

void LaunchMap::EraseUnknownCountLocked(uint64_t id) {
  auto it = entries_.find(id);
  if (it != entries_.end() && it->second.remaining == 0) entries_.erase(it);
}

void LaunchMap::TrimUnknownCount(uint64_t covered) {
  // Graph launches with an unknown record count are normally freed after the next flush. A
  // program that replays such graphs without ever flushing must not grow without bound:
  // past kMaxUnknownCountEntries, free those already covered by an earlier completed buffer.
  constexpr size_t kMaxUnknownCountEntries = 10000;
  ForkGuardedLock lock(mutex_);
  if (unknown_count_ids_.size() <= kMaxUnknownCountEntries) return;
  size_t kept = 0;
  for (uint64_t id : unknown_count_ids_) {
    if (id > covered) {
      unknown_count_ids_[kept++] = id;
    } else {
      EraseUnknownCountLocked(id);
    }
  }
  unknown_count_ids_.resize(kept);
}

void LaunchMap::AfterFlush() {
  ForkGuardedLock lock(mutex_);
  for (uint64_t id : unknown_count_ids_) EraseUnknownCountLocked(id);
  unknown_count_ids_.clear();
}

void LaunchMap::Clear() {
  ForkGuardedLock lock(mutex_);
  entries_.clear();
  unknown_count_ids_.clear();
}

size_t LaunchMap::size() {
  ForkGuardedLock lock(mutex_);
  return entries_.size();
}

}  // namespace proton
