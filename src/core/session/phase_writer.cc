// PhaseWriter; see phase_writer.h.
#include "core/session/phase_writer.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/fork_guard.h"
#include "core/session/session_manager.h"

namespace proton {
namespace {

// One per process: a forked child gets a fresh one (the parent's thread did not survive the
// fork, and its mutex may have been held at that moment), and the parent's is abandoned.
struct WriterState {
  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable idle;
  bool pending = false;
  bool busy = false;
};

ForkGuardedMutex g_start_mutex{LockRank::kPhaseWriter};
WriterState* g_state = nullptr;
pid_t g_state_pid = 0;

void Run(WriterState* state) {
  bool poll = false;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(state->mutex);
      if (poll) {
        state->wake.wait_for(lock, std::chrono::milliseconds(PhaseWriter::kPollMilliseconds),
                             [state] { return state->pending; });
      } else {
        state->wake.wait(lock, [state] { return state->pending; });
      }
      state->pending = false;
      state->busy = true;
    }
    poll = SessionManager::Get().WriteCompletedParts();
    {
      std::lock_guard<std::mutex> lock(state->mutex);
      state->busy = false;
    }
    state->idle.notify_all();
  }
}

WriterState* StateForThisProcess(bool start) {
  std::lock_guard<ForkGuardedMutex> lock(g_start_mutex);
  if (g_state != nullptr && g_state_pid == ::getpid()) return g_state;
  if (!start) return nullptr;
  g_state = new WriterState();  // never freed: the thread runs until the process ends
  g_state_pid = ::getpid();
  std::thread(Run, g_state).detach();
  return g_state;
}

ForkGuardedMutex g_stats_mutex{LockRank::kLeaf};
PartWriteStats g_stats;

}  // namespace

PartWriteStats PhaseWriter::Stats() {
  std::lock_guard<ForkGuardedMutex> lock(g_stats_mutex);
  return g_stats;
}

void PhaseWriter::AddWritten(uint64_t bytes, double seconds) {
  std::lock_guard<ForkGuardedMutex> lock(g_stats_mutex);
  ++g_stats.parts;
  g_stats.bytes += bytes;
  g_stats.seconds += seconds;
}

void PhaseWriter::Wake() {
  WriterState* state = StateForThisProcess(/*start=*/true);
  {
    std::lock_guard<std::mutex> lock(state->mutex);
    state->pending = true;
  }
  state->wake.notify_one();
}

void PhaseWriter::WaitIdle() {
  WriterState* state = StateForThisProcess(/*start=*/false);
  if (state == nullptr) return;
  std::unique_lock<std::mutex> lock(state->mutex);
  state->idle.wait(lock, [state] { return !state->busy; });
}

}  // namespace proton
