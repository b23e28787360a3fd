// The "inside InitializeInjection" flag and the process-exit finalize (see injection_state.h).
#include "cupti/injection_state.h"

#include <atomic>
#include <cstdlib>

namespace proton::cupti {
namespace {
thread_local bool t_in_injection_init = false;
thread_local int t_backend_start_depth = 0;
std::atomic<void (*)()> g_exit_hook{nullptr};
std::atomic<bool> g_exit_registered{false};
std::atomic<bool> g_exiting{false};

void ExitFinalize() {
  g_exiting.store(true, std::memory_order_release);
  if (void (*hook)() = g_exit_hook.load()) hook();
}
}  // namespace

void SetExitFinalizeHook(void (*hook)()) { g_exit_hook.store(hook); }
void RegisterExitFinalizeOnce() {
  if (g_exit_hook.load() == nullptr || g_exit_registered.exchange(true)) return;
  std::atexit(ExitFinalize);
}
bool ProcessExiting() { return g_exiting.load(std::memory_order_acquire); }

bool InInjectionInit() { return t_in_injection_init; }
void SetInInjectionInit(bool inside) { t_in_injection_init = inside; }

bool InBackendStart() { return t_backend_start_depth > 0; }
ScopedBackendStart::ScopedBackendStart() { ++t_backend_start_depth; }
ScopedBackendStart::~ScopedBackendStart() { --t_backend_start_depth; }

}  // namespace proton::cupti
