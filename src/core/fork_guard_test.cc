// The fork guard: a child never inherits a guarded lock that another thread held at the fork,
// and the child actions run in the child only.
#include "core/fork_guard.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/testing/fork_child.h"

namespace proton {
namespace {

using test::InChild;
using test::kUnderTsan;

class ForkGuard : public ::testing::Test {
 protected:
  void SetUp() override {
    if (kUnderTsan) GTEST_SKIP() << "fork under ThreadSanitizer";
  }
};

TEST_F(ForkGuard, ChildNeverInheritsALockHeldByAnotherThread) {
  static ForkGuardedMutex mutex(LockRank::kLeaf);
  std::atomic<bool> held{false};
  std::thread holder([&] {
    ForkGuardedLock lock(mutex);
    held.store(true);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  });
  while (!held.load()) std::this_thread::yield();
  // The fork waits for the holder; the child's copy of the lock is free.
  EXPECT_EQ(InChild([] {
              ForkGuardedLock lock(mutex, std::defer_lock);
              return lock.TryLock() ? 0 : 1;
            }),
            0);
  holder.join();
  ForkGuardedLock relock(mutex, std::defer_lock);
  EXPECT_TRUE(relock.TryLock());  // the parent's lock was given back too
}

std::atomic<int> g_child_actions{0};

TEST_F(ForkGuard, ChildActionsRunInTheChildOnly) {
  static const bool kAdded = (AddForkChildAction([] { g_child_actions.fetch_add(1); }), true);
  ASSERT_TRUE(kAdded);
  EXPECT_FALSE(InForkedChild());
  EXPECT_EQ(InChild([] { return g_child_actions.load() == 1 && InForkedChild() ? 0 : 1; }), 0);
  EXPECT_EQ(g_child_actions.load(), 0);
}

TEST_F(ForkGuard, LocksOfEveryRankAreFreeInTheChild) {
  static ForkGuardedMutex leaf(LockRank::kLeaf);
  static ForkGuardedMutex sessions(LockRank::kSessions);
  std::atomic<bool> held{false};
  std::atomic<bool> release{false};
  // Held in nesting order by a thread that lets go only after the fork began.
  std::thread holder([&] {
    ForkGuardedLock outer(sessions);
    ForkGuardedLock inner(leaf);
    held.store(true);
    while (!release.load()) std::this_thread::yield();
  });
  while (!held.load()) std::this_thread::yield();
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    release.store(true);
  });
  int child = InChild([] {
    ForkGuardedLock outer(sessions, std::defer_lock);
    ForkGuardedLock inner(leaf, std::defer_lock);
    return outer.TryLock() && inner.TryLock() ? 0 : 1;
  });
  EXPECT_EQ(child, 0);
  holder.join();
  releaser.join();
}

TEST(ForkGuardSlots, ADestroyedMutexGivesItsSlotBack) {
  // Far more than the registry's slots, one at a time: each gives its slot back.
  for (int i = 0; i < 1000; ++i) {
    ForkGuardedMutex mutex(LockRank::kLeaf);
    ForkGuardedLock lock(mutex);
  }
}

}  // namespace
}  // namespace proton
