// Runtime; see runtime.h. The process-wide handle is in process_runtime.cc.
#include "core/runtime/runtime.h"

#include <algorithm>
#include <vector>

#include "core/fork_guard.h"
#include "core/session/cli_mode.h"
#include "core/session/phase_writer.h"
#include "core/session/session_manager.h"

namespace proton {
namespace {

// The runtimes alive in this process, each of which drops its sessions in a forked child.
// Never destroyed: a runtime may end during static destruction.
struct LiveRuntimes {
  ForkGuardedMutex mutex{LockRank::kLeaf};
  std::vector<Runtime*> runtimes PROTON_GUARDED_BY(mutex);
};

LiveRuntimes& Live() {
  static LiveRuntimes* live = new LiveRuntimes();
  return *live;
}

// The one fork child action of the runtimes (fork_guard.h): every guarded lock is free again.
void AfterForkChildOfEveryRuntime() {
  std::vector<Runtime*> runtimes;
  {
    ForkGuardedLock lock(Live().mutex);
    runtimes = Live().runtimes;
  }
  for (Runtime* runtime : runtimes) runtime->AfterForkChild();
}

void AddLive(Runtime* runtime) {
  static const bool kForkActionAdded = (AddForkChildAction(AfterForkChildOfEveryRuntime), true);
  (void)kForkActionAdded;
  ForkGuardedLock lock(Live().mutex);
  Live().runtimes.push_back(runtime);
}

void RemoveLive(Runtime* runtime) {
  ForkGuardedLock lock(Live().mutex);
  auto& runtimes = Live().runtimes;
  runtimes.erase(std::remove(runtimes.begin(), runtimes.end(), runtime), runtimes.end());
}

}  // namespace

Runtime::Runtime(RuntimeOptions options)
    : options_(std::move(options)), command_line_mode_(options_.command_line_mode) {
  for (const BackendRegistration& backend : options_.backends) backends_.Register(backend);
  sessions_ = std::make_unique<SessionManager>(*this);
  phase_writer_ =
      std::make_unique<PhaseWriter>([this] { return sessions_->WriteCompletedParts(); });
  AddLive(this);
}

Runtime::~Runtime() {
  RemoveLive(this);
  // The backend stops while the phase writer still runs (discarding waits for it to be idle);
  // then the writer's thread ends, then the sessions it worked on go.
  sessions_->DiscardAll(/*stop_backend=*/true);
  phase_writer_.reset();
  sessions_.reset();
}

std::string Runtime::OutputPathFor(std::string_view name, std::string_view suffix,
                                   bool default_name) const {
  return options_.output_path ? options_.output_path(name, suffix, default_name)
                              : DefaultOutputPath(name, suffix, default_name);
}

// Whether the parent had a GPU backend decides whether the child may start one (a driver
// initialised before fork is unusable after it); the parent's sessions are never written.
void Runtime::AfterForkChild() { sessions_->AfterForkChild(); }

bool Runtime::ForkedFromProcessWithBackend() {
  return InForkedChild() && sessions_->parent_had_backend();
}

}  // namespace proton
