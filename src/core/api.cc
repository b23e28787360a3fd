// The public C++ API (include/proton/proton.h): thin forwarding to the session manager and the
// per-thread context sources.
#include "core/context/thread_context.h"
#include "core/session/session_manager.h"
#include "proton/proton.h"

namespace proton {

Result<std::optional<int>> Start(const StartOptions& options) {
  return SessionManager::Get().Start(options, /*cli_start=*/false);
}
Status Activate(std::optional<int> session) { return SessionManager::Get().Activate(session); }
Status Deactivate(std::optional<int> session, bool flushing) {
  return SessionManager::Get().Deactivate(session, flushing);
}
Status Finalize(std::optional<int> session, std::string_view output_format) {
  return SessionManager::Get().Finalize(session, output_format);
}
bool ProfilingOn() { return SessionManager::Get().profiling_on(); }

void EnterScope(uint64_t scope_id, std::string_view name) { ContextEnterScope(scope_id, name); }
Status ExitScope(uint64_t scope_id, std::string_view name) {
  return ContextExitScope(scope_id, name);
}
Status AddMetrics(uint64_t scope_id, const Metrics& metrics) {
  return ContextAddScopeMetrics(scope_id, metrics);
}

void EnterState(std::string_view name) { ContextEnterState(name); }
void ExitState() { ContextExitState(); }
void EnterOp(uint64_t op_id, std::string_view name) { ContextEnterOp(op_id, name); }
void ExitOp(uint64_t op_id) { ContextExitOp(op_id); }
Status AddOpMetrics(uint64_t op_id, const Metrics& metrics) {
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
  return SessionManager::Get().Clear(session, phase, clear_up_to_phase);
}

}  // namespace proton
