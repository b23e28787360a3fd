// The CUDA injection entry (profiler.md §5.11). With CUDA_INJECTION64_PATH naming libproton.so,
// the driver calls InitializeInjection during cuInit in every process of a `proton` run,
// including processes the Python bootstrap never reaches (native programs, `python -I`, other
// interpreters). It starts or joins session 0 through the CLI lifecycle (src/core/cli), which
// also installs the atexit finalize fallback, signal writing and fork handling. Idempotent: the
// Python bootstrap may have started the session already, and the driver may call us again.
#include <atomic>
#include <cstdio>

#include "core/cli/cli_session.h"
#include "cupti/injection_state.h"

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static std::atomic<bool> entered{false};
  if (entered.exchange(true)) return 1;
  // Outside a `proton` run (PROTON_CLI unset) there is nothing to start: the library was
  // injected by hand, or loaded by proton._C in API mode.
  if (!proton::cli::InstallCliProcess()) return 1;
  proton::cli::NoteInjectionRan();
  // cuInit came from this thread's own backend start (the availability probe or CUPTI's
  // subscription, with the session locks held): that start subscribes; nothing to do here.
  if (proton::cupti::InBackendStart()) return 1;
  proton::cupti::SetInInjectionInit(true);
  proton::Status status = proton::cli::StartSessionZero();
  proton::cupti::SetInInjectionInit(false);
  if (!status.ok()) {
    std::fprintf(stderr, "[proton] warning: could not start the profiling session: %s\n",
                 status.message().c_str());
  }
  return 1;  // never fail cuInit: the program runs, profiled or not
}
