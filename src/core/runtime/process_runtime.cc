// The process-wide runtime (runtime.h) and the calls that act on it: the trace clock of the
// context sources (trace_clock.h) and the command-line hooks (cli_mode.h).
#include <atomic>

#include "core/hot_flags.h"
#include "core/record/recorder.h"
#include "core/runtime/runtime.h"
#include "core/session/cli_mode.h"
#include "core/session/session_manager.h"

namespace proton {
namespace {

std::atomic<Runtime*> g_process_runtime{nullptr};

// Makes `runtime` the process-wide one, with its command-line mode in the hot line.
void Publish(Runtime* runtime) {
  g_process_runtime.store(runtime, std::memory_order_release);
  g_hot.command_line_mode.store(runtime->command_line_mode(), std::memory_order_relaxed);
}

}  // namespace

void Runtime::SetCommandLineMode(bool on) {
  command_line_mode_.store(on);
  if (is_process_wide()) g_hot.command_line_mode.store(on, std::memory_order_relaxed);
}

Runtime& CreateProcessRuntime(RuntimeOptions options) {
  if (Runtime* existing = g_process_runtime.load(std::memory_order_acquire)) return *existing;
  // Lock-free, so that any caller may create it, whatever locks it holds: of two racing
  // creations the first to publish wins and the other's runtime goes. Never destroyed:
  // threads and atexit handlers use it until the process ends.
  auto* made = new Runtime(std::move(options));
  Runtime* expected = nullptr;
  if (g_process_runtime.compare_exchange_strong(expected, made, std::memory_order_acq_rel)) {
    g_hot.command_line_mode.store(made->command_line_mode(), std::memory_order_relaxed);
    return *made;
  }
  delete made;
  return *expected;
}

Runtime& ProcessRuntime() {
  Runtime* runtime = g_process_runtime.load(std::memory_order_acquire);
  if (runtime != nullptr) [[likely]] {
    return *runtime;
  }
  return CreateProcessRuntime(RuntimeOptions());
}

bool Runtime::is_process_wide() const {
  return g_process_runtime.load(std::memory_order_acquire) == this;
}

ScopedProcessRuntime::ScopedProcessRuntime(Runtime& runtime) : previous_(&ProcessRuntime()) {
  Publish(&runtime);
  runtime.sessions().Republish();  // threads refresh onto this runtime's sessions
}

ScopedProcessRuntime::~ScopedProcessRuntime() {
  Publish(previous_);
  previous_->sessions().Republish();
}

uint64_t TraceClockNs() {
  Runtime* runtime = g_process_runtime.load(std::memory_order_acquire);
  return runtime != nullptr ? runtime->clock().Now() : RealtimeClockNs();
}

// ---- command-line hooks (cli_mode.h) ----

void SetCommandLineMode(bool on) { ProcessRuntime().SetCommandLineMode(on); }
bool IsCommandLineMode() { return ProcessRuntime().command_line_mode(); }

Result<std::optional<int>> StartCliSession(const StartOptions& options, bool scopes_only) {
  return ProcessRuntime().sessions().Start(options, /*cli_start=*/true, scopes_only);
}

void StartCliSessionLazily(uint64_t entering_scope_id) {
  ProcessRuntime().sessions().MaybeStartLazily(entering_scope_id);
}

bool HasRecordedAnything() { return HasRecorded(); }

}  // namespace proton
