// The public C++ API (include/proton/proton.h): thin forwarding to the session manager and the
// per-thread context sources. With PROTON_RECORD, each call is also recorded (recorder.h).
#include <new>

#include "core/context/thread_context.h"
#include "core/record/recorder.h"
#include "core/session/cli_mode.h"
#include "core/session/session_manager.h"
#include "proton/proton.h"

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

}  // namespace

Result<std::optional<int>> Start(const StartOptions& options) {
  Status name_ok = CheckName(options.name);
  auto result = name_ok.ok() ? SessionManager::Get().Start(options, /*cli_start=*/false)
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
Status Activate(std::optional<int> session) {
  if (Recording()) RecordLine("activate").OptInt("session", session);
  return SessionManager::Get().Activate(session);
}
Status Deactivate(std::optional<int> session, bool flushing) {
  if (Recording()) RecordLine("deactivate").OptInt("session", session).Bool("flushing", flushing);
  Status st = SessionManager::Get().Deactivate(session, flushing);
  // Records delivered by the flush come between the two lines; replay applies them first.
  if (Recording()) RecordLine("call_end");
  return st;
}
namespace {
Status FinalizeSessions(std::optional<int> session, std::string_view output_format,
                        bool synchronize) {
  if (Recording()) RecordLine("finalize").OptInt("session", session).Str("format", output_format);
  Status st;
  try {
    st = SessionManager::Get().Finalize(session, output_format, synchronize);
  } catch (const std::bad_alloc&) {
    // Out of memory outside the file write (which reports it itself): an error, never an
    // exception into the program (an abort of a Python process, or of its exit).
    st = Status::Error("out of memory while finalizing", ErrorKind::kRuntime);
  }
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
bool ProfilingOn() { return SessionManager::Get().profiling_on(); }

void EnterScope(uint64_t scope_id, std::string_view name) {
  MaybeStartCliSessionLazily(scope_id);  // CLI child before its first CUDA call (§2.9)
  if (Recording()) RecordLine("enter_scope").Uint("id", scope_id).Str("name", name);
  ContextEnterScope(scope_id, name);
}
Status ExitScope(uint64_t scope_id, std::string_view name) {
  if (Recording()) RecordLine("exit_scope").Uint("id", scope_id).Str("name", name);
  return ContextExitScope(scope_id, name);
}
Status AddMetrics(uint64_t scope_id, const Metrics& metrics) {
  MaybeStartCliSessionLazily();  // CLI child before its first CUDA call (§2.9)
  if (Recording()) RecordLine("add_metrics").Uint("id", scope_id).MetricList("metrics", metrics);
  return ContextAddScopeMetrics(scope_id, metrics);
}

void EnterState(std::string_view name) {
  MaybeStartCliSessionLazily();  // CLI child before its first CUDA call (§2.9)
  if (Recording()) RecordLine("enter_state").Str("name", name);
  ContextEnterState(name);
}
void ExitState() {
  if (Recording()) RecordLine("exit_state");
  ContextExitState();
}
void EnterOp(uint64_t op_id, std::string_view name) {
  MaybeStartCliSessionLazily();  // CLI child before its first CUDA call (§2.9)
  if (Recording()) RecordLine("enter_op").Uint("id", op_id).Str("name", name);
  ContextEnterOp(op_id, name);
}
void ExitOp(uint64_t op_id) {
  if (Recording()) RecordLine("exit_op").Uint("id", op_id);
  ContextExitOp(op_id);
}
Status AddOpMetrics(uint64_t op_id, const Metrics& metrics) {
  if (Recording()) RecordLine("add_op_metrics").Uint("id", op_id).MetricList("metrics", metrics);
  return ContextAddOpMetrics(op_id, metrics);
}

std::optional<int> ContextDepth(int session) {
  if (!ProfilingOn()) return std::nullopt;
  return ContextDepthOf(session);
}

Result<std::string> GetJson(int session, int phase) {
  return SessionManager::Get().GetData(session, phase, /*msgpack=*/false);
}
Result<std::string> GetMsgpack(int session, int phase) {
  return SessionManager::Get().GetData(session, phase, /*msgpack=*/true);
}
Status Clear(int session, int phase, bool clear_up_to_phase) {
  if (Recording()) {
    RecordLine("clear")
        .Int("session", session)
        .Int("phase", phase)
        .Bool("up_to", clear_up_to_phase);
  }
  return SessionManager::Get().Clear(session, phase, clear_up_to_phase);
}

Result<int> AdvancePhase(int session) {
  if (Recording()) RecordLine("advance_phase").Int("session", session);
  Result<int> phase = SessionManager::Get().AdvancePhase(session);
  if (phase.ok()) ContextRefresh();
  return phase;
}
Result<bool> IsPhaseComplete(int session, int phase) {
  return SessionManager::Get().IsPhaseComplete(session, phase);
}

}  // namespace proton
