// The life of session 0 in a process of a `proton` run (profiler.md §2.7, §2.9, §5.11):
// command-line mode, output naming, start (the root at once, others lazily; a Python process on
// a GPU machine starts scopes-only and the CUDA injection attaches the backend at its cuInit),
// exit handling (the Python bootstrap's exit hook first, a C atexit fallback), signal writing,
// and fork. Everything is a no-op outside a `proton` run
// (PROTON_CLI unset).
#pragma once

#include "core/runtime/runtime_options.h"
#include "util/status.h"

namespace proton::cli {

// The options of the process runtime in libproton.so: the exit finalize always; in a `proton`
// run (PROTON_CLI=1) also command-line mode, the command's output naming and the lazy start
// of session 0. The library's load creates the process runtime with them (cli_session.cc).
RuntimeOptions ProcessRuntimeOptions();

// Installs the command's fork handling, the atexit fallback and the signal writer (the process
// runtime, made from ProcessRuntimeOptions, is in CLI mode already). Idempotent; runs when
// libproton.so is loaded in a process with PROTON_CLI=1. Returns whether the process is in a
// `proton` run.
bool InstallCliProcess();

// Starts (or joins) session 0 with the launcher's options.
// Idempotent. Called by the CUDA injection entry (src/cupti) and proton_cli_start().
// `scopes_only`: the lazy start from a scope, state, metric or op used before the first CUDA
// call; it starts no backend (see LazyStart in cli_session.cc), the injection adds it.
Status StartSessionZero(bool scopes_only = false);

// The exit path: finalizes (writes) when this is the root process or it recorded anything;
// otherwise writes nothing. Idempotent until a new session starts.
void FinalizeProcess();

// Called by the CUDA injection entry when the driver runs it (src/cupti/injection.cc).
void NoteInjectionRan();

// Whether this process initialised the CUDA driver while the driver never ran our injection
// (CUDA_INJECTION64_PATH changed or unset before the first CUDA call), so no kernel was
// recorded. Prints the one-line warning and returns true then. Asks the driver only when it
// is already loaded (RTLD_NOLOAD), with a query that does not initialise it.
bool WarnIfCudaRanUnprofiled();

}  // namespace proton::cli

// C entry points (stable names for the injection code and ctypes-based tests).
extern "C" {
int proton_cli_start(void);      // 1 when session 0 is running in CLI mode, else 0
void proton_cli_finalize(void);  // FinalizeProcess()
int proton_cli_warn_if_cuda_ran_unprofiled(void);  // WarnIfCudaRanUnprofiled()
}
