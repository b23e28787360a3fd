// TraceData: the events of a `trace` session (profiler.md §3.10, formats.md §4.4, §6): one
// event per kernel, with the launch (thread, CPU time) that the correlator stamped on its
// record for flow arrows, CPU scope events per thread, and the flexible metrics attached at
// nodes. The context tree interns call
// stacks; each kernel event points at its leaf node. CPU times come from TraceClockNs.
#pragma once

#include <unordered_map>
#include <vector>

#include "core/data/data.h"
#include "core/data/metric.h"

namespace proton {

struct TraceEvent {
  uint32_t node;  // leaf; the call stack is the path from ROOT
  uint32_t device_id;
  uint32_t stream_id;
  uint32_t graph_id;  // != 0: ran inside a CUDA graph (its own lane)
  uint64_t start_ns;
  uint64_t end_ns;
  uint64_t launch_thread;  // OS thread id of the launch; 0 with launch_ns 0: unknown
  uint64_t launch_ns;
};

// A scope entered on one thread while the session was active.
struct ScopeEvent {
  uint64_t thread;
  std::string name;
  uint64_t start_ns;
  uint64_t end_ns;
  bool open;                        // not exited (yet): end_ns means nothing
  std::vector<FlexMetric> metrics;  // in order of first addition
};

// Names a scope event across Clear (which makes older refs stale).
struct ScopeEventRef {
  uint32_t index = UINT32_MAX;
  uint32_t gen = 0;
  bool valid() const { return index != UINT32_MAX; }
};

class TraceData : public Data {
 public:
  bool is_trace() const override { return true; }

  ScopeEventRef BeginScope(uint64_t thread, std::string_view name, uint64_t ns)
      PROTON_EXCLUDES(mutex_);
  void EndScope(ScopeEventRef ref, uint64_t ns) PROTON_EXCLUDES(mutex_);
  Status AddScopeEventMetrics(ScopeEventRef ref, const Metrics& metrics) PROTON_EXCLUDES(mutex_);

  // Call inside WithLock (unchecked: the analysis cannot follow WithLock's lambda).
  const std::vector<TraceEvent>& events() const PROTON_NO_THREAD_SAFETY_ANALYSIS { return events_; }
  const std::vector<ScopeEvent>& scope_events() const PROTON_NO_THREAD_SAFETY_ANALYSIS {
    return scopes_;
  }
  // The metrics attached at `node` (nullptr when none).
  const std::vector<FlexMetric>* NodeMetrics(uint32_t node) const PROTON_NO_THREAD_SAFETY_ANALYSIS;

 protected:
  void AddKernelLocked(uint32_t node, const KernelRecord& record) PROTON_REQUIRES(mutex_) override;
  // Kept per node, latest value per name: a kernel event shows the values of its node (a
  // launch hook sets the same per-call values each launch; a sum would count them N times).
  Status AddMetricsLocked(uint32_t node, const Metrics& metrics) PROTON_REQUIRES(mutex_) override;
  void ClearLocked() PROTON_REQUIRES(mutex_) override;
  bool RootRecordedLocked() const PROTON_REQUIRES(mutex_) override;

 private:
  bool IsCurrentLocked(ScopeEventRef ref) const PROTON_REQUIRES(mutex_);

  std::vector<TraceEvent> events_ PROTON_GUARDED_BY(mutex_);
  std::vector<ScopeEvent> scopes_ PROTON_GUARDED_BY(mutex_);
  std::unordered_map<uint32_t, std::vector<FlexMetric>> node_metrics_ PROTON_GUARDED_BY(mutex_);
};

// Adds `metrics` into `into` (suffix rules and roofline coercion of metric.h). `replace`:
// the latest value wins instead of accumulating.
Status MergeFlexMetrics(std::vector<FlexMetric>& into, const Metrics& metrics, bool replace);

}  // namespace proton
