// The profiler runtime: the one object that owns the core's process state (profiler.md
// §1.2-§1.4, §2.9, design.md "One runtime object"). It owns the sessions and their shared
// backend (SessionManager), the backend registry, the phase writer thread, the output naming,
// the trace clock, the exit-finalize hook and the lazy CLI start, all configured once from
// RuntimeOptions at creation, and it drops its sessions in a forked child.
//
// The process has at most one process-wide runtime (ProcessRuntime). libproton.so creates it
// at load (src/core/cli/cli_session.cc, with the command's options under `proton`), before
// the Python module's init or the CUDA driver's InitializeInjection can run; C++ tests and
// programs that link the core without it get a default one on first use. The public API
// (src/core/api.cc) and the per-thread context sources use the process runtime; everything
// below them gets its runtime passed down by reference. Tests may build their own runtimes.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

#include "core/backend/registry.h"
#include "core/backend/trace_clock.h"
#include "core/runtime/runtime_options.h"

namespace proton {

class SessionManager;
class PhaseWriter;

class Runtime {
 public:
  explicit Runtime(RuntimeOptions options);
  ~Runtime();  // stops the phase writer and the backend; drops the sessions unwritten
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  SessionManager& sessions() { return *sessions_; }
  BackendRegistry& backends() { return backends_; }
  PhaseWriter& phase_writer() { return *phase_writer_; }
  TraceClock& clock() { return clock_; }

  // The output naming given at creation, else DefaultOutputPath.
  std::string OutputPathFor(std::string_view name, std::string_view suffix,
                            bool default_name) const;
  bool command_line_mode() const { return command_line_mode_.load(std::memory_order_relaxed); }
  // The Python binding's set_command_line (src/python/cli_binding.cc).
  void SetCommandLineMode(bool on);
  LazyCliStartFn lazy_cli_start() const { return options_.lazy_cli_start; }
  ExitFinalizeFn exit_finalize() const { return options_.exit_finalize; }
  const std::string& default_output_format() const { return options_.default_output_format; }
  // Whether this is the process-wide runtime (the one the thread contexts read).
  bool is_process_wide() const;

  // In a forked child, once every guarded lock is free again (fork_guard.h): drops the
  // parent's sessions without writing them (§2.9). Every live runtime gets it.
  void AfterForkChild();
  // Whether this process is a forked child whose parent had a GPU backend running in this
  // runtime: it must not touch the driver or CUPTI, whose state did not survive the fork.
  bool ForkedFromProcessWithBackend();

 private:
  const RuntimeOptions options_;
  std::atomic<bool> command_line_mode_;
  BackendRegistry backends_;
  TraceClock clock_;
  // The sessions are destroyed after the phase writer, whose thread works on them.
  std::unique_ptr<SessionManager> sessions_;
  std::unique_ptr<PhaseWriter> phase_writer_;
};

// Creates the process-wide runtime from `options`, once: a later call (or one after
// ProcessRuntime made a default runtime) returns the existing runtime and ignores `options`,
// as Perfetto's Tracing::Initialize does. Never destroyed.
Runtime& CreateProcessRuntime(RuntimeOptions options);
// The process-wide runtime; a default one (API mode, no options) if no entry point made one.
Runtime& ProcessRuntime();

// Tests: `runtime` is the process-wide one while this lives, so the public API and the thread
// contexts use it; the previous one is back afterwards.
class ScopedProcessRuntime {
 public:
  explicit ScopedProcessRuntime(Runtime& runtime);
  ~ScopedProcessRuntime();
  ScopedProcessRuntime(const ScopedProcessRuntime&) = delete;
  ScopedProcessRuntime& operator=(const ScopedProcessRuntime&) = delete;

 private:
  Runtime* previous_;
};

}  // namespace proton
