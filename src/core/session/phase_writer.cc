// PhaseWriter; see phase_writer.h.
#include "core/session/phase_writer.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <thread>

#include "util/thread_annotations.h"

namespace proton {

struct PhaseWriter::State {
  Mutex mutex;
  std::condition_variable_any wake;
  std::condition_variable_any idle;
  bool pending PROTON_GUARDED_BY(mutex) = false;
  bool busy PROTON_GUARDED_BY(mutex) = false;
  bool stop PROTON_GUARDED_BY(mutex) = false;
  std::thread thread;
};

namespace {

// Waits for a wake-up (or the poll interval); false when the writer stops.
bool AwaitWork(PhaseWriter::State* state, bool poll) {
  MutexLock lock(state->mutex);
  auto woken = [state]() PROTON_REQUIRES(state->mutex) { return state->pending || state->stop; };
  if (poll) {
    lock.WaitFor(state->wake, std::chrono::milliseconds(PhaseWriter::kPollMilliseconds), woken);
  } else {
    lock.Wait(state->wake, woken);
  }
  if (state->stop) return false;
  state->pending = false;
  state->busy = true;
  return true;
}

void Run(PhaseWriter::State* state, const std::function<bool()>* work) {
  bool poll = false;
  while (AwaitWork(state, poll)) {
    poll = (*work)();
    {
      MutexLock lock(state->mutex);
      state->busy = false;
    }
    state->idle.notify_all();
  }
}

ForkGuardedMutex g_stats_mutex{LockRank::kLeaf};
PartWriteStats g_stats PROTON_GUARDED_BY(g_stats_mutex);

}  // namespace

PhaseWriter::PhaseWriter(std::function<bool()> work) : work_(std::move(work)) {}

PhaseWriter::~PhaseWriter() {
  State* state = nullptr;
  {
    ForkGuardedLock lock(start_mutex_);
    if (state_ == nullptr || state_pid_ != ::getpid()) return;  // a parent's: abandoned
    state = state_;
    state_ = nullptr;
  }
  {
    MutexLock lock(state->mutex);
    state->stop = true;
  }
  state->wake.notify_all();
  state->thread.join();
  delete state;
}

PartWriteStats PhaseWriter::Stats() {
  ForkGuardedLock lock(g_stats_mutex);
  return g_stats;
}

void PhaseWriter::AddWritten(uint64_t bytes, double seconds) {
  ForkGuardedLock lock(g_stats_mutex);
  ++g_stats.parts;
  g_stats.bytes += bytes;
  g_stats.seconds += seconds;
}

PhaseWriter::State* PhaseWriter::StateForThisProcess(bool start) {
  ForkGuardedLock lock(start_mutex_);
  if (state_ != nullptr && state_pid_ == ::getpid()) return state_;
  if (!start) return nullptr;
  // A parent's state is never freed in the child: its std::thread is joinable, and the
  // thread it names does not exist here.
  state_ = new State();
  state_pid_ = ::getpid();
  state_->thread = std::thread(Run, state_, &work_);
  return state_;
}

void PhaseWriter::Wake() {
  State* state = StateForThisProcess(/*start=*/true);
  {
    MutexLock lock(state->mutex);
    state->pending = true;
  }
  state->wake.notify_one();
}

void PhaseWriter::WaitIdle() {
  State* state = StateForThisProcess(/*start=*/false);
  if (state == nullptr) return;
  MutexLock lock(state->mutex);
  lock.Wait(state->idle, [state]() PROTON_REQUIRES(state->mutex) { return !state->busy; });
}

}  // namespace proton
