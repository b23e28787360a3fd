// PhaseSet; see phases.h. A phase that was written or cleared leaves the map, so a run of many
// phases keeps only the phases still held in memory.
#include "core/session/phases.h"

#include <string>

namespace proton {

PhaseSet::PhaseSet(DataFactory make_data) : make_data_(std::move(make_data)) {
  phases_[0].data = make_data_();
}

PhaseSet::Phase* PhaseSet::FindLocked(int phase) {
  auto it = phases_.find(phase);
  return it == phases_.end() ? nullptr : &it->second;
}

std::shared_ptr<Data> PhaseSet::Current() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return phases_.at(current_).data;
}

int PhaseSet::current_phase() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_;
}

bool PhaseSet::ever_advanced() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_ > 0;
}

int PhaseSet::Advance() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++current_;
  phases_[current_].data = make_data_();
  return current_;
}

Result<std::shared_ptr<Data>> PhaseSet::Get(int phase) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = phases_.find(phase);
  if (it == phases_.end() || it->second.data == nullptr) {
    return Status::Error("[PROTON] Phase " + std::to_string(phase) + " has no data.",
                         ErrorKind::kRuntime);
  }
  return it->second.data;
}

void PhaseSet::Clear(int phase, bool up_to) {
  std::lock_guard<std::mutex> lock(mutex_);
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
}

std::vector<std::pair<int, Data*>> PhaseSet::SealedIncomplete() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::pair<int, Data*>> out;
  for (const auto& [number, phase] : phases_) {
    if (number < current_ && !phase.complete && phase.data) out.emplace_back(number, phase.data.get());
  }
  return out;
}

void PhaseSet::MarkComplete(int phase) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (Phase* p = FindLocked(phase); p != nullptr && phase < current_) p->complete = true;
}

void PhaseSet::MarkAllSealedComplete() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [number, phase] : phases_) {
    if (number < current_) phase.complete = true;
  }
}

bool PhaseSet::IsComplete(int phase) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (phase < 0 || phase >= current_) return false;
  auto it = phases_.find(phase);
  // A sealed phase that left the map was written (complete) or cleared (nothing to wait for).
  return it == phases_.end() || it->second.complete;
}

std::vector<std::pair<int, std::shared_ptr<Data>>> PhaseSet::TakeCompleteUnwritten() {
  std::lock_guard<std::mutex> lock(mutex_);
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
  std::lock_guard<std::mutex> lock(mutex_);
  Phase& p = phases_[phase];
  p.data = std::move(data);
  p.complete = true;
  p.write_failed = true;
}

std::vector<std::pair<int, std::shared_ptr<Data>>> PhaseSet::TakeAll() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::pair<int, std::shared_ptr<Data>>> out;
  for (auto& [number, phase] : phases_) {
    if (phase.data) out.emplace_back(number, phase.data);
  }
  // The current phase stays reachable: a thread may still read it from an older session list.
  std::erase_if(phases_, [this](const auto& entry) { return entry.first != current_; });
  return out;
}

}  // namespace proton
