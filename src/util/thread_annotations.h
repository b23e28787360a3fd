// Lock annotations that clang's -Wthread-safety checks at compile time (the clang build has it
// on, as an error): a member marked PROTON_GUARDED_BY(mutex_) may only be touched with that
// mutex held, and a function marked PROTON_REQUIRES(mutex_) only called with it held. Other
// compilers see nothing. libstdc++'s std::mutex and std::lock_guard carry no annotations, so
// the locks and guards the analysis follows are the ones below.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#if defined(__clang__)
#define PROTON_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define PROTON_THREAD_ANNOTATION(x)
#endif

#define PROTON_CAPABILITY(name) PROTON_THREAD_ANNOTATION(capability(name))
#define PROTON_SCOPED_CAPABILITY PROTON_THREAD_ANNOTATION(scoped_lockable)
#define PROTON_GUARDED_BY(mutex) PROTON_THREAD_ANNOTATION(guarded_by(mutex))
#define PROTON_PT_GUARDED_BY(mutex) PROTON_THREAD_ANNOTATION(pt_guarded_by(mutex))
#define PROTON_REQUIRES(...) PROTON_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define PROTON_EXCLUDES(...) PROTON_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define PROTON_ACQUIRE(...) PROTON_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define PROTON_RELEASE(...) PROTON_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define PROTON_TRY_ACQUIRE(...) PROTON_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define PROTON_RETURN_CAPABILITY(mutex) PROTON_THREAD_ANNOTATION(lock_returned(mutex))
// For the few functions whose locking the analysis cannot follow (a lock taken in one function
// and released in another, as the fork handler does); say why next to each use.
#define PROTON_NO_THREAD_SAFETY_ANALYSIS PROTON_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace proton {

// std::mutex as a capability the analysis knows.
class PROTON_CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() PROTON_ACQUIRE() { mutex_.lock(); }
  void unlock() PROTON_RELEASE() { mutex_.unlock(); }
  bool try_lock() PROTON_TRY_ACQUIRE(true) { return mutex_.try_lock(); }
  // For std::condition_variable, which waits on the std::mutex itself (MutexLock::Wait).
  std::mutex& native() { return mutex_; }

 private:
  std::mutex mutex_;
};

// Holds `MutexType` (Mutex, ForkGuardedMutex, any annotated capability with lock/unlock/
// try_lock) for its scope, like std::unique_lock: it can be unlocked early, try-locked, and
// waited on with a std::condition_variable_any.
template <typename MutexType>
class PROTON_SCOPED_CAPABILITY ScopedLock {
 public:
  explicit ScopedLock(MutexType& mutex) PROTON_ACQUIRE(mutex) : mutex_(mutex), held_(true) {
    mutex_.lock();
  }
  // Deferred form: nothing is held until TryLock() or Lock().
  ScopedLock(MutexType& mutex, std::defer_lock_t) PROTON_EXCLUDES(mutex)
      : mutex_(mutex), held_(false) {}
  ~ScopedLock() PROTON_RELEASE() {
    if (held_) mutex_.unlock();
  }
  ScopedLock(const ScopedLock&) = delete;
  ScopedLock& operator=(const ScopedLock&) = delete;

  bool TryLock() PROTON_TRY_ACQUIRE(true) {
    held_ = mutex_.try_lock();
    return held_;
  }
  void Unlock() PROTON_RELEASE() {
    mutex_.unlock();
    held_ = false;
  }
  void Lock() PROTON_ACQUIRE() {
    mutex_.lock();
    held_ = true;
  }
  // Waits on `changed` (a std::condition_variable_any) until `done()`; the lock is held again
  // on return, as for std::condition_variable_any::wait. The analysis cannot see that `done`
  // runs with the lock held: give the lambda PROTON_REQUIRES of the mutex.
  template <typename Condition, typename Predicate>
  void Wait(Condition& changed, Predicate done) {
    changed.wait(mutex_, done);
  }
  template <typename Condition, typename Predicate, typename Rep, typename Period>
  bool WaitFor(Condition& changed, std::chrono::duration<Rep, Period> timeout, Predicate done) {
    return changed.wait_for(mutex_, timeout, done);
  }

 private:
  MutexType& mutex_;
  bool held_;
};

using MutexLock = ScopedLock<Mutex>;

}  // namespace proton
