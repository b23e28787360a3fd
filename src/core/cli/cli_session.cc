// See cli_session.h. Thread: the process runtime's creation and InstallCliProcess run at
// library load (loader thread);
// StartSessionZero on the caller's thread (bootstrap, or the CUDA injection thread);
// FinalizeProcess on the exiting thread or the signal writer thread.
#include "core/cli/cli_session.h"

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "core/cli/cli_config.h"
#include "core/cli/output_naming.h"
#include "core/cli/signal_writer.h"
#include "core/fork_guard.h"
#include "core/runtime/runtime.h"
#include "core/session/cli_mode.h"
#include "core/session/session_manager.h"
#include "proton/proton.h"
#include "util/ascii.h"

namespace proton::cli {

namespace {

std::atomic<bool> g_installed{false};
// Whether the driver ran our injection in this process (a refused backend then explains
// itself; only a skipped injection needs WarnIfCudaRanUnprofiled's warning).
std::atomic<bool> g_injection_ran{false};
ForkGuardedMutex& StartMutex() {
  static auto* mutex = new ForkGuardedMutex(LockRank::kCliStart);
  return *mutex;
}

void AtExit() { FinalizeProcess(); }

// The lazy start (cli_mode.h): a scope, state, metric or op before session 0 exists. It starts
// the session scopes-only. Starting the backend here would run its availability probe, which
// calls cuInit: that would initialise the CUDA driver (hundreds of ms, GPU memory, and on a
// GPU machine a CUDA context owner) in helper processes that never use the GPU (data loader
// workers, compilers). When the program initialises the driver itself, the driver calls the
// injection entry, whose StartSessionZero() joins this session and attaches the backend, so
// kernels are still profiled from the program's first CUDA call on.
void LazyStart() {
  Status status = StartSessionZero(/*scopes_only=*/true);
  if (!status.ok()) {
    std::fprintf(stderr, "[proton] warning: could not start the profiling session: %s\n",
                 status.message().c_str());
  }
}

// Whether a Python interpreter runs in this process (its frames feed the python context).
bool InPythonProcess() {
  using IsInitializedFn = int (*)();
  auto is_initialized = reinterpret_cast<IsInitializedFn>(dlsym(RTLD_DEFAULT, "Py_IsInitialized"));
  return is_initialized != nullptr && is_initialized() != 0;
}

bool IsPythonContext(const std::string& context) { return AsciiLower(context) == "python"; }

// Out of memory is an error value here too (api.cc), so the program's exit status stays.
// `on_signal`: the flush does not synchronize the device (§2.10).
void FinalizeAndReport(bool on_signal = false) {
  Status status = on_signal ? FinalizeAllWithoutSynchronizing() : Finalize(std::nullopt);
  if (!status.ok()) {
    std::fprintf(stderr, "[proton] warning: could not write the profile: %s\n",
                 status.message().c_str());
  }
}

bool ShouldWrite() {
  if (!GetCliConfig().enabled || !IsCommandLineMode()) return false;
  return IsRootProcess() || HasRecordedAnything();
}

// The signal writer thread's write (§2.10). It finalizes even when profiling is already off:
// an exit-time write in progress holds the session manager's lock, so this waits for that
// write to complete (and finds nothing left) instead of letting the re-raised signal cut it
// short; a session not yet written is written here.
void FinalizeOnSignal() {
  if (ShouldWrite()) FinalizeAndReport(/*on_signal=*/true);
}

}  // namespace

RuntimeOptions ProcessRuntimeOptions() {
  RuntimeOptions options;
  // CuptiBackend::Start registers it with atexit once a backend runs in CLI mode
  // (src/cupti/injection_state.h); FinalizeProcess is idempotent, so the load-time atexit
  // handler below then finds nothing.
  options.exit_finalize = &FinalizeProcess;
  if (GetCliConfig().enabled) {
    options.command_line_mode = true;
    options.output_path = CliOutputPath;
    options.lazy_cli_start = LazyStart;
    options.default_output_format = GetCliConfig().format;
  }
  return options;
}

bool InstallCliProcess() {
  if (!GetCliConfig().enabled) return false;
  if (g_installed.exchange(true)) return true;
  CreateProcessRuntime(ProcessRuntimeOptions());  // made at load already: see below
  // The core drops a forked child's copy of the parent's sessions (§2.9); the child starts its
  // own session if it uses the GPU or scopes, and needs its own signal writer thread.
  AddForkChildAction(SignalWriterAfterForkChild);
  std::atexit(AtExit);
  // Installed at load, before any session: a signal that arrives before session 0 exists
  // just re-raises (FinalizeProcess finds nothing to write).
  InstallSignalWriter(FinalizeOnSignal);
  return true;
}

Status StartSessionZero(bool scopes_only) {
  if (!InstallCliProcess()) return Status();
  // A child forked from a process with a running GPU backend cannot use CUDA (the driver does
  // not survive fork), and a CUPTI call could wait forever on a lock held by a thread that did
  // not survive the fork: such a child stays unprofiled.
  if (ProcessRuntime().ForkedFromProcessWithBackend()) return Status();
  ForkGuardedLock lock(StartMutex());
  const CliConfig& config = GetCliConfig();
  StartOptions options;
  options.name = SessionName(config, IsRootProcess());
  options.context = config.context;
  options.data = config.data;
  options.backend = config.backend;
  options.mode = config.mode;
  if (IsPythonContext(options.context) && !InPythonProcess()) {
    // §2.9: a process without Python frames records with the shadow context instead.
    std::fprintf(stderr,
                 "[proton] warning: -c python in a process that is not Python (pid %d): "
                 "using the shadow context\n",
                 static_cast<int>(getpid()));
    options.context = "shadow";
  }
  Result<std::optional<int>> started = StartCliSession(options, scopes_only);
  if (!started.ok()) return started.status();
  return Status();
}

void NoteInjectionRan() { g_injection_ran.store(true); }

bool WarnIfCudaRanUnprofiled() {
  if (!GetCliConfig().enabled || g_injection_ran.load()) return false;
  if (ProcessRuntime().sessions().backend_running()) return false;
  // A forked child inherits the parent's driver state, which it may not use: never ask.
  if (InForkedChild()) return false;
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (driver == nullptr) return false;  // never loaded: no CUDA in this process
  using DeviceGetCountFn = int (*)(int*);
  auto device_count = reinterpret_cast<DeviceGetCountFn>(dlsym(driver, "cuDeviceGetCount"));
  int devices = 0;
  // CUDA_SUCCESS (0) only after cuInit; before it, CUDA_ERROR_NOT_INITIALIZED.
  const bool initialised = device_count != nullptr && device_count(&devices) == 0;
  dlclose(driver);
  if (!initialised) return false;
  std::fprintf(stderr,
               "[proton] warning: process %d used CUDA, but the CUDA driver did not load "
               "proton's injection (was CUDA_INJECTION64_PATH changed or unset?): its kernels "
               "were not recorded\n",
               static_cast<int>(getpid()));
  return true;
}

void FinalizeProcess() {
  if (ShouldWrite() && ProfilingOn()) {  // not: nothing started, or already finalized
    WarnIfCudaRanUnprofiled();
    FinalizeAndReport();
  }
  AwaitDeathIfSignalled();
}

}  // namespace proton::cli

namespace {
// The entry point of libproton.so, at load (profiler.md §5.11: the library is loaded by the
// CUDA driver, by proton._C, or by a program that links it): creates the process runtime
// before anything else can use it, with the command's options in a `proton` run, and then
// installs the command's exit, signal and fork handling there.
[[maybe_unused]] const bool kProcessRuntimeCreated =
    (proton::CreateProcessRuntime(proton::cli::ProcessRuntimeOptions()),
     proton::cli::InstallCliProcess(), true);
}  // namespace

extern "C" int proton_cli_start(void) {
  proton::Status status = proton::cli::StartSessionZero();
  if (!status.ok()) {
    std::fprintf(stderr, "[proton] warning: could not start the profiling session: %s\n",
                 status.message().c_str());
    return 0;
  }
  return proton::ProfilingOn() ? 1 : 0;
}

extern "C" void proton_cli_finalize(void) { proton::cli::FinalizeProcess(); }

extern "C" int proton_cli_warn_if_cuda_ran_unprofiled(void) {
  return proton::cli::WarnIfCudaRanUnprofiled() ? 1 : 0;
}
