// PhaseSet; see phases.h. A phase that was written or cleared leaves the map, so a run of many
// phases keeps only the phases still held in memory.
#include "core/session/phases.h"

#include <string>

#include "util/check.h"

namespace proton {

PhaseSet::PhaseSet(DataFactory make_data) : make_data_(std::move(make_data)) {
  phases_[0].data = make_data_();
}

PhaseSet::Phase* PhaseSet::FindLocked(int phase) {
  auto it = phases_.find(phase);
  return it == phases_.end() ? nullptr : &it->second;
}

void PhaseSet::DcheckStatesLocked() const {
#if PROTON_DCHECK_IS_ON
  auto current = phases_.find(current_);
  PROTON_DCHECK(current != phases_.end() && current->second.data != nullptr)
      << "the current phase " << current_ << " holds no data";
  PROTON_DCHECK(!current->second.complete) << "the current phase " << current_ << " is complete";
  for (const auto& [number, phase] : phases_) {
    PROTON_DCHECK(number >= 0 && number <= current_)
        << "phase " << number << " exists beyond the current phase " << current_;
    PROTON_DCHECK(!phase.write_failed || phase.complete)
        << "phase " << number << " failed to write but is not complete";
  }
#endif
}

std::shared_ptr<Data> PhaseSet::Current() const {
  MutexLock lock(mutex_);
  auto it = phases_.find(current_);
  // Every method keeps the current phase in the map with its data.
  PROTON_CHECK(it != phases_.end() && it->second.data != nullptr)
      << "the current phase " << current_ << " holds no data";
  return it->second.data;
}

int PhaseSet::current_phase() const {
  MutexLock lock(mutex_);
  return current_;
}

bool PhaseSet::ever_advanced() const {
  MutexLock lock(mutex_);
  return current_ > 0;
}

int PhaseSet::Advance() {
  MutexLock lock(mutex_);
  PROTON_DCHECK(phases_.count(current_ + 1) == 0) << "phase " << current_ + 1 << " exists";
  ++current_;
  phases_[current_].data = make_data_();
  DcheckStatesLocked();
  return current_;
}

Result<std::shared_ptr<Data>> PhaseSet::Get(int phase) const {
  MutexLock lock(mutex_);
  auto it = phases_.find(phase);
  if (it == phases_.end() || it->second.data == nullptr) {
    return Status::Error("[PROTON] Phase " + std::to_string(phase) + " has no data.",
                         ErrorKind::kRuntime);
  }
  return it->second.data;
}

void PhaseSet::Clear(int phase, bool up_to) {
  MutexLock lock(mutex_);
  for (auto it = phases_.begin(); it != phases_.end();) {
    bool hit = up_to ? it->first <= phase : it->first == phase;
    if (!hit) {
      ++it;
    } else if (it->first == current_) {
      // The current phase is recreated empty in place: threads keep capturing into it.
      it->second.data->Clear();
      ++it;
    } else {
      it = phases_.erase(it);
    }
  }
  DcheckStatesLocked();
}

std::vector<std::pair<int, Data*>> PhaseSet::SealedIncomplete() const {
  MutexLock lock(mutex_);
  std::vector<std::pair<int, Data*>> out;
  for (const auto& [number, phase] : phases_) {
    if (number < current_ && !phase.complete && phase.data)
      out.emplace_back(number, phase.data.get());
  }
  return out;
}

void PhaseSet::MarkComplete(int phase) {
  MutexLock lock(mutex_);
  if (Phase* p = FindLocked(phase); p != nullptr && phase < current_) p->complete = true;
}

void PhaseSet::MarkAllSealedComplete() {
  MutexLock lock(mutex_);
  for (auto& [number, phase] : phases_) {
    if (number < current_) phase.complete = true;
  }
}

bool PhaseSet::IsComplete(int phase) const {
  MutexLock lock(mutex_);
  if (phase < 0 || phase >= current_) return false;
  auto it = phases_.find(phase);
  // A sealed phase that left the map was written (complete) or cleared (nothing to wait for).
  return it == phases_.end() || it->second.complete;
}

std::vector<std::pair<int, std::shared_ptr<Data>>> PhaseSet::TakeCompleteUnwritten() {
  MutexLock lock(mutex_);
  std::vector<std::pair<int, std::shared_ptr<Data>>> out;
  for (auto it = phases_.begin(); it != phases_.end();) {
    if (it->second.complete && !it->second.write_failed && it->first < current_) {
      out.emplace_back(it->first, std::move(it->second.data));
      it = phases_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

void PhaseSet::Restore(int phase, std::shared_ptr<Data> data) {
  MutexLock lock(mutex_);
  // Only sealed phases are taken for writing (TakeCompleteUnwritten).
  PROTON_DCHECK(phase < current_) << "phase " << phase << " restored, current " << current_;
  Phase& p = phases_[phase];
  p.data = std::move(data);
  p.complete = true;
  p.write_failed = true;
  DcheckStatesLocked();
}

std::vector<std::pair<int, std::shared_ptr<Data>>> PhaseSet::TakeAll() {
  MutexLock lock(mutex_);
  std::vector<std::pair<int, std::shared_ptr<Data>>> out;
  for (auto& [number, phase] : phases_) {
    if (phase.data) out.emplace_back(number, phase.data);
  }
  // The current phase stays reachable: a thread may still read it from an older session list.
  const int current = current_;  // read under the lock, which the analysis cannot see in the lambda
  std::erase_if(phases_, [current](const auto& entry) { return entry.first != current; });
  DcheckStatesLocked();
  return out;
}

}  // namespace proton
