// The phases of one session (profiler.md §1.7, §3.11): one data object per phase. New launches
// and scopes go to the current phase's data; a kernel's record goes to the data its launch
// captured, so records of phase N land in phase N whenever they arrive. Phases below the
// current one are sealed; a sealed phase becomes complete once no launch of it is in flight,
// and may then be written (periodic flushing) and freed. All methods lock the set.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/data/data.h"
#include "util/status.h"
#include "util/thread_annotations.h"

namespace proton {

class PhaseSet {
 public:
  using DataFactory = std::function<std::shared_ptr<Data>()>;
  explicit PhaseSet(DataFactory make_data);

  std::shared_ptr<Data> Current() const;
  int current_phase() const;
  // Whether a phase other than 0 was ever started: finalize then names files `.part_<p>`.
  bool ever_advanced() const;
  // Starts phase current+1 and returns its number.
  int Advance();

  // The data of `phase`, or the reference's error when it was freed or never existed.
  Result<std::shared_ptr<Data>> Get(int phase) const;
  // Frees `phase` (or every phase up to it); a cleared current phase restarts empty.
  void Clear(int phase, bool up_to);

  // Sealed phases that are not complete yet, with their data.
  std::vector<std::pair<int, Data*>> SealedIncomplete() const;
  // Marks `phase` complete (its last record arrived).
  void MarkComplete(int phase);
  // Every sealed phase is complete (the backend was flushed synchronously).
  void MarkAllSealedComplete();
  bool IsComplete(int phase) const;
  // Removes complete phases that still hold data and returns them, for writing.
  std::vector<std::pair<int, std::shared_ptr<Data>>> TakeCompleteUnwritten();
  // A part write failed: `phase` is held again, for finalize (the writer does not retry it).
  void Restore(int phase, std::shared_ptr<Data> data);
  // Every phase that still holds data (finalize), in phase order; all but the current leave.
  std::vector<std::pair<int, std::shared_ptr<Data>>> TakeAll();

 private:
  struct Phase {
    std::shared_ptr<Data> data;  // null once written or cleared
    bool complete = false;
    bool write_failed = false;  // left for finalize
  };
  Phase* FindLocked(int phase) PROTON_REQUIRES(mutex_);
  // Debug builds: the current phase holds data and is not complete, no phase lies beyond it,
  // a phase whose write failed is complete.
  void DcheckStatesLocked() const PROTON_REQUIRES(mutex_);

  DataFactory make_data_;
  mutable Mutex mutex_;
  std::map<int, Phase> phases_ PROTON_GUARDED_BY(mutex_);
  int current_ PROTON_GUARDED_BY(mutex_) = 0;
};

}  // namespace proton
