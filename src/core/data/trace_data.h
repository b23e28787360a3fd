// TraceData: one event per kernel for a `trace` session (profiler.md §3.10). The context tree
// interns call stacks; each event points at its leaf node.
#pragma once

#include <vector>

#include "core/data/data.h"

namespace proton {

struct TraceEvent {
  uint32_t node;  // leaf; the call stack is the path from ROOT
  uint32_t device_id;
  uint32_t stream_id;
  uint64_t start_ns;
  uint64_t end_ns;
};

class TraceData : public Data {
 public:
  bool is_trace() const override { return true; }
  // Call inside WithLock.
  const std::vector<TraceEvent>& events() const { return events_; }

 protected:
  void AddKernelLocked(uint32_t node, const KernelRecord& record) override;
  // The 3.6 trace holds kernel events only; flexible metrics are accepted and not kept.
  Status AddMetricsLocked(uint32_t, const Metrics&) override { return Status(); }
  void ClearLocked() override { events_.clear(); }

 private:
  std::vector<TraceEvent> events_;
};

}  // namespace proton
