// Re-entrancy state of the CUDA injection entry (profiler.md §5.11), per thread.
// - Inside InitializeInjection the driver is in the middle of cuInit: no cuInit or device
//   query may be made from there.
// - While this thread starts the backend (availability probe, CuptiBackend::Start), the
//   session manager's locks are held; a cuInit made there calls InitializeInjection on this
//   same thread, which must then not start session 0 again (it would wait on those locks
//   forever: the session is being started by this very call).
#pragma once

namespace proton::cupti {

bool InInjectionInit();
void SetInInjectionInit(bool inside);

// Process exit in CLI mode. CuptiBackend::Start registers (once, with atexit, after libcupti
// is loaded and CUPTI has set up its own exit cleanup) a handler that marks the process as
// exiting and runs the exit hook (injection.cc: the CLI's FinalizeProcess). Being registered
// later, it runs before CUPTI's cleanup and before static destructors of objects made since;
// the CLI's load-time atexit handler runs after all of those. While exiting, Stop detaches
// instead of unsubscribing (see CuptiBackend::Stop). The hook is the process runtime's
// RuntimeOptions::exit_finalize (src/core/cli gives FinalizeProcess); without one, nothing
// is registered.
void RegisterExitFinalizeOnce();
bool ProcessExiting();

bool InBackendStart();
class ScopedBackendStart {
 public:
  ScopedBackendStart();
  ~ScopedBackendStart();
  ScopedBackendStart(const ScopedBackendStart&) = delete;
  ScopedBackendStart& operator=(const ScopedBackendStart&) = delete;
};

}  // namespace proton::cupti
