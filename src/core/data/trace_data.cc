// TraceData; see trace_data.h.
#include "core/data/trace_data.h"

namespace proton {

void TraceData::AddKernelLocked(uint32_t node, const KernelRecord& record) {
  events_.push_back(
      TraceEvent{node, record.device_id, record.stream_id, record.start_ns, record.end_ns});
}

}  // namespace proton
