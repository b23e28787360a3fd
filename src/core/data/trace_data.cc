// TraceData; see trace_data.h.
#include "core/data/trace_data.h"

#include <algorithm>

namespace proton {

Status MergeFlexMetrics(std::vector<FlexMetric>& into, const Metrics& metrics, bool replace) {
  Status result;
  for (const auto& [raw, value] : metrics) {
    MetricName parsed = ParseMetricName(raw);
    MetricValue coerced = CoerceRoofline(parsed.name, value);
    FlexMetric* found = nullptr;
    size_t index = 0;
    for (; index < into.size(); ++index) {
      if (into[index].name == parsed.name) {
        found = &into[index];
        break;
      }
    }
    if (found == nullptr) {
      into.push_back(FlexMetric{parsed.name, parsed.kind, std::move(coerced)});
    } else if (replace) {
      found->value = std::move(coerced);
    } else if (Status st = AccumulateMetric(*found, index, coerced); !st.ok()) {
      result = st;
    }
  }
  return result;
}

bool TraceData::IsCurrentLocked(ScopeEventRef ref) const {
  return ref.valid() && ref.gen == generation_.load(std::memory_order_relaxed) &&
         ref.index < scopes_.size();
}

ScopeEventRef TraceData::BeginScope(uint64_t thread, std::string_view name, uint64_t ns) {
  MutexLock lock(mutex_);
  MarkRecorded();
  scopes_.push_back(ScopeEvent{thread, std::string(name), ns, ns, true, {}});
  return ScopeEventRef{static_cast<uint32_t>(scopes_.size() - 1),
                       generation_.load(std::memory_order_relaxed)};
}

void TraceData::EndScope(ScopeEventRef ref, uint64_t ns) {
  MutexLock lock(mutex_);
  if (!IsCurrentLocked(ref)) return;
  ScopeEvent& scope = scopes_[ref.index];
  scope.end_ns = std::max(ns, scope.start_ns);
  scope.open = false;
}

Status TraceData::AddScopeEventMetrics(ScopeEventRef ref, const Metrics& metrics) {
  MutexLock lock(mutex_);
  if (!IsCurrentLocked(ref)) return Status();
  return MergeFlexMetrics(scopes_[ref.index].metrics, metrics, /*replace=*/false);
}

const std::vector<FlexMetric>* TraceData::NodeMetrics(uint32_t node) const {
  auto it = node_metrics_.find(node);
  return it == node_metrics_.end() ? nullptr : &it->second;
}

void TraceData::AddKernelLocked(uint32_t node, const KernelRecord& record) {
  events_.push_back(TraceEvent{node, record.device_id, record.stream_id, record.graph_id,
                               record.start_ns, record.end_ns, record.launch_thread,
                               record.launch_ns});
}

Status TraceData::AddMetricsLocked(uint32_t node, const Metrics& metrics) {
  return MergeFlexMetrics(node_metrics_[node], metrics, /*replace=*/true);
}

bool TraceData::RootRecordedLocked() const {
  return !events_.empty() || !scopes_.empty() || NodeMetrics(kRootNode) != nullptr;
}

void TraceData::ClearLocked() {
  events_.clear();
  scopes_.clear();
  node_metrics_.clear();
}

}  // namespace proton
