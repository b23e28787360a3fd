// TreeData: the aggregated calling-context tree of a `tree` session (profiler.md §3.1-§3.3).
// Each node holds only its own kernel metrics (time, count, device) and flexible metrics.
#pragma once

#include <array>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/backend/pc_sample.h"
#include "core/data/data.h"
#include "core/data/metric.h"

namespace proton {

struct KernelMetrics {
  uint64_t time_ns = 0;
  uint64_t count = 0;
  uint32_t device_id = 0;  // property: the last value wins
  bool present = false;
};

class TreeData : public Data {
 public:
  bool is_trace() const override { return false; }

  // PC-sampling mode: ROOT gets the 20 counter placeholders (§4).
  void SetPcSamplingMode(bool on) PROTON_EXCLUDES(mutex_);
  // Adds PC-sampling counters at `node` (summed).
  void AddPcSampling(NodeRef node, const PcCounters& counters) PROTON_EXCLUDES(mutex_);
  // Stores a flexible metric as given: no suffix rule, no roofline coercion. For readers that
  // rebuild a tree from a file (tests, tools).
  Status AddRawMetric(NodeRef node, const std::string& name, MetricKind kind, MetricValue value)
      PROTON_EXCLUDES(mutex_);

  // Read access for writers; call inside WithLock. Unchecked: the analysis cannot see that
  // WithLock's lambda runs with the lock held.
  const PcCounters* Pc(uint32_t node) const PROTON_NO_THREAD_SAFETY_ANALYSIS {
    auto it = pc_.find(node);
    return it == pc_.end() ? nullptr : &it->second;
  }
  bool pc_sampling_mode() const PROTON_NO_THREAD_SAFETY_ANALYSIS { return pc_sampling_mode_; }

  const KernelMetrics* Kernel(uint32_t node) const PROTON_NO_THREAD_SAFETY_ANALYSIS {
    return node < kernel_.size() && kernel_[node].present ? &kernel_[node] : nullptr;
  }
  const std::vector<FlexMetric>* Flex(uint32_t node) const PROTON_NO_THREAD_SAFETY_ANALYSIS {
    auto it = flex_.find(node);
    return it == flex_.end() ? nullptr : &it->second;
  }
  bool any_kernel() const PROTON_NO_THREAD_SAFETY_ANALYSIS { return any_kernel_; }
  // Names of inclusive flexible metrics anywhere in the tree: ROOT placeholders (§4).
  const std::set<std::string>& inclusive_names() const PROTON_NO_THREAD_SAFETY_ANALYSIS {
    return inclusive_names_;
  }

 protected:
  void AddKernelLocked(uint32_t node, const KernelRecord& record) PROTON_REQUIRES(mutex_) override;
  Status AddMetricsLocked(uint32_t node, const Metrics& metrics) PROTON_REQUIRES(mutex_) override;
  void ClearLocked() PROTON_REQUIRES(mutex_) override;
  bool RootRecordedLocked() const PROTON_REQUIRES(mutex_) override;

 private:
  std::vector<KernelMetrics> kernel_ PROTON_GUARDED_BY(mutex_);
  std::unordered_map<uint32_t, std::vector<FlexMetric>> flex_ PROTON_GUARDED_BY(mutex_);
  std::set<std::string> inclusive_names_ PROTON_GUARDED_BY(mutex_);
  bool any_kernel_ PROTON_GUARDED_BY(mutex_) = false;
  bool pc_sampling_mode_ PROTON_GUARDED_BY(mutex_) = false;
  std::unordered_map<uint32_t, PcCounters> pc_ PROTON_GUARDED_BY(mutex_);
};

}  // namespace proton
