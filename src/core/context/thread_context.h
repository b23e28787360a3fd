// Per-thread context state and the context sources (profiler.md §3.4-§3.7): shadow scope stacks
// per session (with D9 inheritance from the main thread), python frames, the thread's state,
// the open op, and path capture for launches and graph capture. All functions run on the
// application thread they describe and touch only thread-local state plus the sessions' data.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/data/data.h"
#include "proton/proton.h"

namespace proton {

// A token for the calling thread, distinct from every other live or past thread. Sessions
// remember their main thread (the one that started them, §3.4) by it.
uint64_t ThreadToken();

void ContextEnterScope(uint64_t scope_id, std::string_view name);
Status ContextExitScope(uint64_t scope_id, std::string_view name);
Status ContextAddScopeMetrics(uint64_t scope_id, const Metrics& metrics);
void ContextEnterState(std::string_view name);
void ContextExitState();
void ContextEnterOp(uint64_t op_id, std::string_view name);
void ContextExitOp(uint64_t op_id);
Status ContextAddOpMetrics(uint64_t op_id, const Metrics& metrics);
// Open scopes of the calling thread in `session` (python context: Python stack depth), or 0.
int ContextDepthOf(int session);
// NVTX ranges as scopes (§5.9): a pop without a matching push is ignored, never raises.
void ContextNvtxPush(std::string_view message);
void ContextNvtxPop();

// Brings the calling thread's view of the sessions up to date now instead of at its next
// launch or scope: after advance_phase, the main thread publishes its open scopes in the new
// phase at once, for the threads that follow it (D9).
void ContextRefresh();

// Where one launch lands in one session.
// `data` is a plain pointer: the launch path copies it into a correlation slot without
// reference-count traffic; the data outlives the slot (correlator.h, Correlator::MakeData).
struct CaptureTarget {
  Data* data = nullptr;
  NodeRef node;
  int session_id = -1;
  bool name_known = true;  // false: the record's name becomes a child of `node`
  bool in_op = false;      // `node` is an open op's: PC samples name their function below it
};
// At a launch on the calling thread: the node of every active session (path, state frames,
// leaf `kernel_name` unless empty; a launch inside an open op reuses the op's node). Fills at
// most `capacity` targets and returns how many active sessions there are: when that is more
// than `capacity`, call again with room for all. Allocation-free in the steady state: a
// per-thread cache remembers the node of recent (path, state, kernel) launches.
size_t CaptureLaunch(std::string_view kernel_name, CaptureTarget* out, size_t capacity);

// At graph capture: per active session, the frame names below ROOT of the current context
// path, state frames, then `kernel_name`.
void CaptureGraphPaths(std::string_view kernel_name,
                       std::vector<std::pair<int, std::vector<std::string>>>* out);

// "__proton_launch_metadata:<k>" expands to two frames (§3.6); any other state to one.
void AppendStateFrames(std::string_view state, std::vector<std::string_view>* frames);

}  // namespace proton
