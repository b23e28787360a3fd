// The public C++ API (include/proton/proton.h): thin forwarding to the process runtime's session
// manager (src/core/runtime/runtime.h) and the per-thread context sources. With PROTON_RECORD, each
// call is also recorded (recorder.h). Out of memory (std::bad_alloc from any allocation below)
// never leaves the API: the profiled program goes on (profiler.md §1.2). A recording call drops
// what it would have recorded and says once that the profile is incomplete; a call that returns a
// status returns the error.
#include <atomic>
#include <cstdio>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "core/context/thread_context.h"
#include "core/record/recorder.h"
#include "core/runtime/runtime.h"
#include "core/session/cli_mode.h"
#include "core/session/session_manager.h"
#include "proton/proton.h"
#include "util/out_of_memory.h"

namespace proton {

namespace {

// The name becomes a path: a NUL byte would silently cut it short (open() stops there), so it
// is refused as Python's open() refuses it.
Status CheckName(const std::optional<std::string>& name) {
  if (name && name->find('\0') != std::string::npos) {
    return Status::Error("embedded null byte", ErrorKind::kValue);
  }
  return Status();
}

std::atomic<bool> g_dropped_warned{false};
// Scope entries this thread dropped for want of memory: their exits are not errors.
thread_local uint64_t t_dropped_scopes = 0;

void WarnDroppedOnce() {
  if (g_dropped_warned.exchange(true)) return;
  std::fputs(
      "[proton] warning: out of memory: some scopes, metrics or ops were not recorded; the "
      "profile is incomplete\n",
      stderr);
}

// Runs a recording call; out of memory drops it. Returns false when it was dropped.
template <typename Fn>
bool RecordOrDrop(Fn&& record) noexcept {
  try {
    record();
    return true;
  } catch (const std::bad_alloc&) {
    WarnDroppedOnce();
    return false;
  }
}

// Runs a call that returns Status or Result<T>; out of memory is its error, "out of memory
// <step>" (MemoryError in Python). Even the message may not fit: then it has no words.
template <typename Fn>
auto OrOutOfMemory(std::string_view step, Fn&& call) noexcept -> decltype(call()) {
  try {
    return CatchOutOfMemory(step, std::forward<Fn>(call));
  } catch (const std::bad_alloc&) {
    return Error(std::string(), ErrorKind::kOutOfMemory);
  }
}

Result<std::optional<int>> StartUnguarded(const StartOptions& options) {
  Status name_ok = CheckName(options.name);
  auto result = name_ok.ok() ? ProcessRuntime().sessions().Start(options, /*cli_start=*/false)
                             : Result<std::optional<int>>(name_ok.error());
  if (Recording()) {
    RecordLine line("start");
    if (options.name) {
      line.Str("name", *options.name);
    }
    line.Str("context", options.context).Str("data", options.data);
    line.Str("backend", options.backend).Str("mode", options.mode);
    line.OptInt("id", result.ok() ? *result : std::nullopt);
  }
  return result;
}

}  // namespace

Result<std::optional<int>> Start(const StartOptions& options) {
  return OrOutOfMemory("while starting a session", [&] { return StartUnguarded(options); });
}
Status Activate(std::optional<int> session) {
  return OrOutOfMemory("while activating", [&] {
    if (Recording()) RecordLine("activate").OptInt("session", session);
    return ProcessRuntime().sessions().Activate(session);
  });
}
Status Deactivate(std::optional<int> session, bool flushing) {
  return OrOutOfMemory("while deactivating", [&] {
    if (Recording()) {
      RecordLine("deactivate").OptInt("session", session).Bool("flushing", flushing);
    }
    Status st = ProcessRuntime().sessions().Deactivate(session, flushing);
    // Records delivered by the flush come between the two lines; replay applies them first.
    if (Recording()) RecordLine("call_end");
    return st;
  });
}
namespace {
Status FinalizeSessions(std::optional<int> session, std::string_view output_format,
                        bool synchronize) {
  if (Recording()) RecordLine("finalize").OptInt("session", session).Str("format", output_format);
  // Out of memory outside the file write (which reports it itself) is an error, never an
  // exception into the program (an abort of a Python process, or of its exit).
  Status st = OrOutOfMemory("while finalizing", [&] {
    return ProcessRuntime().sessions().Finalize(session, output_format, synchronize);
  });
  if (Recording()) RecordLine("call_end");
  return st;
}
}  // namespace

Status Finalize(std::optional<int> session, std::string_view output_format) {
  return FinalizeSessions(session, output_format, /*synchronize=*/true);
}
Status FinalizeAllWithoutSynchronizing() {
  return FinalizeSessions(std::nullopt, "", /*synchronize=*/false);
}
bool ProfilingOn() { return ProcessRuntime().sessions().profiling_on(); }

void EnterScope(uint64_t scope_id, std::string_view name) {
  bool recorded = RecordOrDrop([&] {
    MaybeStartCliSessionLazily(scope_id);  // CLI child before its first CUDA call (§2.9)
    if (Recording()) RecordLine("enter_scope").Uint("id", scope_id).Str("name", name);
    ContextEnterScope(scope_id, name);
  });
  if (!recorded) ++t_dropped_scopes;
}
Status ExitScope(uint64_t scope_id, std::string_view name) {
  Status st;
  if (!RecordOrDrop([&] {
        if (Recording()) RecordLine("exit_scope").Uint("id", scope_id).Str("name", name);
        st = ContextExitScope(scope_id, name);
      })) {
    return Status();
  }
  // The exit of a scope whose entry was dropped finds the stack unbalanced: not its error.
  if (!st.ok() && t_dropped_scopes > 0) {
    --t_dropped_scopes;
    return Status();
  }
  return st;
}
Status AddMetrics(uint64_t scope_id, const Metrics& metrics) {
  Status st;
  RecordOrDrop([&] {
    MaybeStartCliSessionLazily();  // CLI child before its first CUDA call (§2.9)
    if (Recording()) RecordLine("add_metrics").Uint("id", scope_id).MetricList("metrics", metrics);
    st = ContextAddScopeMetrics(scope_id, metrics);
  });
  return st;
}

void EnterState(std::string_view name) {
  RecordOrDrop([&] {
    MaybeStartCliSessionLazily();  // CLI child before its first CUDA call (§2.9)
    if (Recording()) RecordLine("enter_state").Str("name", name);
    ContextEnterState(name);
  });
}
void ExitState() {
  RecordOrDrop([] {
    if (Recording()) RecordLine("exit_state");
    ContextExitState();
  });
}
void EnterOp(uint64_t op_id, std::string_view name) {
  RecordOrDrop([&] {
    MaybeStartCliSessionLazily();  // CLI child before its first CUDA call (§2.9)
    if (Recording()) RecordLine("enter_op").Uint("id", op_id).Str("name", name);
    ContextEnterOp(op_id, name);
  });
}
void ExitOp(uint64_t op_id) {
  RecordOrDrop([&] {
    if (Recording()) RecordLine("exit_op").Uint("id", op_id);
    ContextExitOp(op_id);
  });
}
Status AddOpMetrics(uint64_t op_id, const Metrics& metrics) {
  Status st;
  RecordOrDrop([&] {
    if (Recording()) RecordLine("add_op_metrics").Uint("id", op_id).MetricList("metrics", metrics);
    st = ContextAddOpMetrics(op_id, metrics);
  });
  return st;
}

std::optional<int> ContextDepth(int session) {
  if (!ProfilingOn()) return std::nullopt;
  return ContextDepthOf(session);
}

Result<std::string> GetJson(int session, int phase) {
  return OrOutOfMemory("while serialising the profile",
                       [&] { return ProcessRuntime().sessions().GetData(session, phase, false); });
}
Result<std::string> GetMsgpack(int session, int phase) {
  return OrOutOfMemory("while serialising the profile",
                       [&] { return ProcessRuntime().sessions().GetData(session, phase, true); });
}
Status Clear(int session, int phase, bool clear_up_to_phase) {
  return OrOutOfMemory("while clearing", [&] {
    if (Recording()) {
      RecordLine("clear")
          .Int("session", session)
          .Int("phase", phase)
          .Bool("up_to", clear_up_to_phase);
    }
    return ProcessRuntime().sessions().Clear(session, phase, clear_up_to_phase);
  });
}

Result<int> AdvancePhase(int session) {
  return OrOutOfMemory("while advancing the phase", [&] {
    if (Recording()) RecordLine("advance_phase").Int("session", session);
    Result<int> phase = ProcessRuntime().sessions().AdvancePhase(session);
    if (phase.ok()) ContextRefresh();
    return phase;
  });
}
Result<bool> IsPhaseComplete(int session, int phase) {
  return OrOutOfMemory("while checking the phase",
                       [&] { return ProcessRuntime().sessions().IsPhaseComplete(session, phase); });
}

}  // namespace proton
