// TreeData; see tree_data.h.
#include "core/data/tree_data.h"

namespace proton {

void TreeData::AddKernelLocked(uint32_t node, const KernelRecord& record) {
  if (kernel_.size() <= node) kernel_.resize(std::max<size_t>(node + 1, kernel_.size() * 2));
  KernelMetrics& k = kernel_[node];
  k.time_ns += record.end_ns - record.start_ns;
  k.count += 1;
  k.device_id = record.device_id;
  k.present = true;
  any_kernel_ = true;
}

Status TreeData::AddMetricsLocked(uint32_t node, const Metrics& metrics) {
  std::vector<FlexMetric>& list = flex_[node];
  for (const auto& [raw_name, raw_value] : metrics) {
    MetricName parsed = ParseMetricName(raw_name);
    MetricValue value = CoerceRoofline(parsed.name, raw_value);
    size_t index = 0;
    for (; index < list.size(); ++index) {
      if (list[index].name == parsed.name) break;
    }
    if (index == list.size()) {
      list.push_back(FlexMetric{parsed.name, parsed.kind, std::move(value)});
      if (parsed.kind == MetricKind::kInclusive) inclusive_names_.insert(parsed.name);
      continue;
    }
    PROTON_RETURN_IF_ERROR(AccumulateMetric(list[index], index, value));
  }
  if (list.empty()) flex_.erase(node);
  return Status();
}

void TreeData::SetPcSamplingMode(bool on) {
  MutexLock lock(mutex_);
  pc_sampling_mode_ = on;
}

void TreeData::AddPcSampling(NodeRef ref, const PcCounters& counters) {
  MutexLock lock(mutex_);
  if (!ref.valid() || (ref.gen != generation() && ref.node != kRootNode)) return;
  PcCounters& c = pc_[ref.node];
  for (size_t i = 0; i < c.size(); ++i) c[i] += counters[i];
  MarkRecorded();
}

Status TreeData::AddRawMetric(NodeRef ref, const std::string& name, MetricKind kind,
                              MetricValue value) {
  MutexLock lock(mutex_);
  if (!ref.valid() || (ref.gen != generation() && ref.node != kRootNode)) return Status();
  std::vector<FlexMetric>& list = flex_[ref.node];
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].name == name) return AccumulateMetric(list[i], i, value);
  }
  list.push_back(FlexMetric{name, kind, std::move(value)});
  if (kind == MetricKind::kInclusive) inclusive_names_.insert(name);
  return Status();
}

bool TreeData::RootRecordedLocked() const {
  return Kernel(kRootNode) != nullptr || Flex(kRootNode) != nullptr || Pc(kRootNode) != nullptr;
}

void TreeData::ClearLocked() {
  pc_.clear();
  kernel_.clear();
  flex_.clear();
  inclusive_names_.clear();
  any_kernel_ = false;
}

}  // namespace proton
