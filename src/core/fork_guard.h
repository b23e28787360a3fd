// Fork safety of the runtime (profiler.md §2.9, §5.11). fork() copies one thread; a lock that
// another thread held at that moment stays locked in the child for ever. So every process-wide
// lock of the core is a ForkGuardedMutex: a pthread_atfork handler takes all of them before
// the fork, in rank order, and releases them on both sides after it, so the child starts with
// every lock free and its own state consistent. Locks that belong to one data object (Data,
// Phases) are not guarded: the child never touches the parent's data objects, it drops them.
#pragma once

#include <mutex>

#include "util/thread_annotations.h"

namespace proton {

// The order in which locks nest: a thread holding a lock takes only locks of later ranks, so
// the fork handler, which takes them all in this order, cannot deadlock with a running thread.
// Locks of one rank never nest.
enum class LockRank : int {
  kCliStart = 0,  // the command's start of session 0, which starts a session
  kSessions,      // SessionManager's lock: every API call
  kPhaseWriter,   // the phase writer's start, taken when a phase advances
  kCorrelator,    // the correlation map and loss counters
  kSnapshot,      // the session list that application threads read
  kRetiredData,   // data objects waiting to be freed (released under the locks above)
  kLeaf,          // everything that holds no other lock: output naming, registry, recorder
};

class PROTON_CAPABILITY("mutex") ForkGuardedMutex {
 public:
  explicit ForkGuardedMutex(LockRank rank);
  ~ForkGuardedMutex();
  ForkGuardedMutex(const ForkGuardedMutex&) = delete;
  ForkGuardedMutex& operator=(const ForkGuardedMutex&) = delete;

  void lock() PROTON_ACQUIRE() { mutex_.lock(); }
  void unlock() PROTON_RELEASE() { mutex_.unlock(); }
  bool try_lock() PROTON_TRY_ACQUIRE(true) { return mutex_.try_lock(); }
  LockRank rank() const { return rank_; }

 private:
  std::mutex mutex_;
  LockRank rank_;
};

using ForkGuardedLock = ScopedLock<ForkGuardedMutex>;

// What runs in a forked child once every guarded lock is free again, in the order added (the
// session manager drops the parent's sessions first). At most a handful: the runtime's parts.
using ForkChildAction = void (*)();
void AddForkChildAction(ForkChildAction action);

// Whether this process was created by fork() from a process that had loaded the core.
bool InForkedChild();

}  // namespace proton
