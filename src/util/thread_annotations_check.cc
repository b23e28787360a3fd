// Compiled twice by the util tests under clang: as it is, it must compile with the lock
// analysis on; with PROTON_EXPECT_REJECTED, each access without the lock must be rejected, so
// the annotations are proven to make the compiler check something.
#include "util/thread_annotations.h"

namespace {

struct Counter {
  proton::Mutex mutex;
  std::condition_variable_any changed;
  int value PROTON_GUARDED_BY(mutex) = 0;

  void AddWaitAndRelock() {
    proton::MutexLock lock(mutex);
    ++value;
    lock.Wait(changed, [this]() PROTON_REQUIRES(mutex) { return value > 0; });
    lock.Unlock();
    lock.Lock();
    ++value;
  }
  void AddIfFree() {
    proton::MutexLock lock(mutex, std::defer_lock);
    if (!lock.TryLock()) return;
    ++value;
  }
#ifdef PROTON_EXPECT_REJECTED
  void AddWithoutLock() { ++value; }
  void AddAfterUnlock() {
    proton::MutexLock lock(mutex);
    lock.Unlock();
    ++value;
  }
  void AddWhetherOrNotTaken() {
    proton::MutexLock lock(mutex, std::defer_lock);
    lock.TryLock();
    ++value;
  }
#endif
};

}  // namespace

int main() {
  Counter counter;
  counter.AddWaitAndRelock();
  counter.AddIfFree();
  return 0;
}
