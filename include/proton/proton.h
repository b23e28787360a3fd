// Public C++ API of the proton profiler, for native programs and the Python binding.
// It mirrors `triton.profiler` (see docs/spec/profiler.md §1); errors are returned, never thrown.
// Thread safety: every function may be called from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "util/status.h"

namespace proton {

inline constexpr std::string_view kDefaultProfileName = "proton";

// A metric value: int64, double, or a vector of either (elementwise sum on repeat).
using MetricValue = std::variant<int64_t, double, std::vector<int64_t>, std::vector<double>>;
using Metrics = std::vector<std::pair<std::string, MetricValue>>;

struct StartOptions {
  std::optional<std::string> name;  // nullopt -> "proton"; "" or "-" -> standard output
  std::string context = "shadow";   // "shadow" | "python" (case-insensitive)
  std::string data = "tree";        // "tree" | "trace" (case-insensitive)
  std::string backend;              // "" = auto, "cupti"
  std::string mode;                 // "" or a mode string
};

// Sessions (§1.2, §1.3). Start returns nullopt when profiling is disabled or in CLI mode.
Result<std::optional<int>> Start(const StartOptions& options);
Status Activate(std::optional<int> session);
Status Deactivate(std::optional<int> session, bool flushing = false);
Status Finalize(std::optional<int> session, std::string_view output_format = "");
bool ProfilingOn();

// Scopes (§1.5). Ids come from one process-wide counter starting at 1.
uint64_t NewScopeId();
void EnterScope(uint64_t scope_id, std::string_view name);
Status ExitScope(uint64_t scope_id, std::string_view name);
Status AddMetrics(uint64_t scope_id, const Metrics& metrics);

// States (§1.6) and Triton launch-hook ops (§3.7).
void EnterState(std::string_view name);
void ExitState();
void EnterOp(uint64_t op_id, std::string_view name);
void ExitOp(uint64_t op_id);
Status AddOpMetrics(uint64_t op_id, const Metrics& metrics);

// context.depth (§1.7): nullopt when profiling is off.
std::optional<int> ContextDepth(int session);

// data (§1.7): the hatchet document as compact JSON text or MessagePack bytes.
Result<std::string> GetJson(int session, int phase = 0);
Result<std::string> GetMsgpack(int session, int phase = 0);
Status Clear(int session, int phase = 0, bool clear_up_to_phase = false);
// Phases (§1.7, §3.11): starts the next phase of `session` and returns its number; whether
// `phase` is complete (sealed, and every record of its launches arrived).
Result<int> AdvancePhase(int session);
Result<bool> IsPhaseComplete(int session, int phase = 0);

}  // namespace proton
