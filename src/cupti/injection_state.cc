// The "inside InitializeInjection" flag and the process-exit finalize (see injection_state.h).
#include "cupti/injection_state.h"

#include <atomic>
#include <cstdlib>

#include "core/runtime/runtime.h"

namespace proton::cupti {
namespace {
thread_local bool t_in_injection_init = false;
thread_local int t_backend_start_depth = 0;
std::atomic<bool> g_exit_registered{false};
std::atomic<bool> g_exiting{false};

void ExitFinalize() {
  g_exiting.store(true, std::memory_order_release);
  if (ExitFinalizeFn hook = ProcessRuntime().exit_finalize()) hook();
}
}  // namespace

void RegisterExitFinalizeOnce() {
  if (ProcessRuntime().exit_finalize() == nullptr || g_exit_registered.exchange(true)) return;
  std::atexit(ExitFinalize);
}
bool ProcessExiting() { return g_exiting.load(std::memory_order_acquire); }

bool InInjectionInit() { return t_in_injection_init; }
void SetInInjectionInit(bool inside) { t_in_injection_init = inside; }

bool InBackendStart() { return t_backend_start_depth > 0; }
ScopedBackendStart::ScopedBackendStart() { ++t_backend_start_depth; }
ScopedBackendStart::~ScopedBackendStart() { --t_backend_start_depth; }

}  // namespace proton::cupti
