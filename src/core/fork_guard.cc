// See fork_guard.h. Registration never blocks: a guarded mutex may be created while its
// creator holds another guarded lock (a singleton built inside a locked region), and a fork
// handler that held a registry lock while waiting for that lock would deadlock with it. So
// mutexes take a free slot of a fixed array of atomic slots (and give it back when destroyed),
// and the prepare handler takes a snapshot, orders it by rank in a fixed array (it runs
// inside fork(): no allocation), and locks it. A mutex created after that snapshot is too new to be
// held by the time fork() copies the process in any real program; its lock in the child would be
// its first.
#include "core/fork_guard.h"

#include <pthread.h>

#include <algorithm>
#include <array>
#include <atomic>

#include "util/check.h"

namespace proton {
namespace {

constexpr size_t kMaxGuarded = 64;
constexpr size_t kMaxChildActions = 8;

struct Registry {
  std::array<std::atomic<ForkGuardedMutex*>, kMaxGuarded> slots{};
  std::array<std::atomic<ForkChildAction>, kMaxChildActions> child_actions{};
  std::atomic<size_t> child_action_count{0};
  // Serialises concurrent forks: held from prepare until the parent or child handler ends.
  std::mutex forking;
  // What the running fork's prepare handler locked, in locking order.
  std::array<ForkGuardedMutex*, kMaxGuarded> held{};
  size_t held_count = 0;
};

Registry& GetRegistry() {
  static Registry* registry = new Registry();
  return *registry;
}

std::atomic<bool> g_forked_child{false};

// The fork handlers take every guarded lock in Prepare and free them in ReleaseHeld, through a
// snapshot of pointers: a hand-over the lock analysis cannot follow.
void Prepare() PROTON_NO_THREAD_SAFETY_ANALYSIS {
  Registry& r = GetRegistry();
  r.forking.lock();
  size_t n = 0;
  for (size_t i = 0; i < kMaxGuarded; ++i) {
    ForkGuardedMutex* mutex = r.slots[i].load(std::memory_order_acquire);
    if (mutex == nullptr) continue;
    // Insertion sort by rank, stable: the order of registration within a rank is kept.
    size_t at = n++;
    while (at > 0 && r.held[at - 1]->rank() > mutex->rank()) {
      r.held[at] = r.held[at - 1];
      --at;
    }
    r.held[at] = mutex;
  }
  r.held_count = n;
  for (size_t i = 0; i < n; ++i) r.held[i]->lock();
}

void ReleaseHeld() PROTON_NO_THREAD_SAFETY_ANALYSIS {
  Registry& r = GetRegistry();
  for (size_t i = r.held_count; i > 0; --i) r.held[i - 1]->unlock();
  r.held_count = 0;
  r.forking.unlock();
}

void Child() {
  ReleaseHeld();
  g_forked_child.store(true);
  Registry& r = GetRegistry();
  size_t actions = std::min(r.child_action_count.load(std::memory_order_acquire), kMaxChildActions);
  for (size_t i = 0; i < actions; ++i) {
    if (ForkChildAction action = r.child_actions[i].load(std::memory_order_acquire)) action();
  }
}

void InstallOnce() {
  static const bool kInstalled = pthread_atfork(Prepare, ReleaseHeld, Child) == 0;
  (void)kInstalled;
}

}  // namespace

ForkGuardedMutex::ForkGuardedMutex(LockRank rank) : rank_(rank) {
  InstallOnce();
  Registry& r = GetRegistry();
  for (std::atomic<ForkGuardedMutex*>& slot : r.slots) {
    ForkGuardedMutex* free = nullptr;
    if (slot.compare_exchange_strong(free, this, std::memory_order_acq_rel)) return;
  }
  PROTON_CHECK(false) << "more process-wide locks than the fork guard holds";
}

ForkGuardedMutex::~ForkGuardedMutex() {
  for (std::atomic<ForkGuardedMutex*>& slot : GetRegistry().slots) {
    ForkGuardedMutex* self = this;
    if (slot.compare_exchange_strong(self, nullptr)) return;
  }
}

void AddForkChildAction(ForkChildAction action) {
  InstallOnce();
  Registry& r = GetRegistry();
  size_t slot = r.child_action_count.fetch_add(1, std::memory_order_acq_rel);
  PROTON_CHECK(slot < kMaxChildActions) << "more fork child actions than the guard runs";
  r.child_actions[slot].store(action, std::memory_order_release);
}

bool InForkedChild() { return g_forked_child.load(); }

}  // namespace proton
