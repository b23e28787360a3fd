// AttributePcSamples; see pc_sample_attribution.h.
#include "core/correlation/pc_sample_attribution.h"

#include "core/data/tree_data.h"

namespace proton {

void AttributePcSamples(const CaptureTarget* targets, size_t count,
                        std::span<const PcSample> samples) {
  for (size_t i = 0; i < count; ++i) {
    const CaptureTarget& target = targets[i];
    if (target.data->is_trace()) continue;
    auto* tree = static_cast<TreeData*>(target.data);
    for (const PcSample& sample : samples) {
      NodeRef node = target.node;
      if ((target.in_op || !target.name_known) && !sample.function.empty()) {
        node = tree->Child(node, sample.function);
      }
      if (!sample.source.empty()) node = tree->Child(node, sample.source);
      tree->AddPcSampling(node, sample.counters);
    }
  }
}

}  // namespace proton
