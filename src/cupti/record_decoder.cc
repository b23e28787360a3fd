// Activity buffer decoding.
#include "cupti/record_decoder.h"

#include <cstddef>
#include <cstdio>

#include "cupti/callback_trampolines.h"

namespace proton::cupti {
namespace {

// The fields we read must not move between the struct the reference uses (Kernel5) and ours.
#define PROTON_SAME_OFFSET(field)                                                              \
  static_assert(offsetof(CUpti_ActivityKernel5, field) == offsetof(KernelActivity, field) &&   \
                    offsetof(CUpti_ActivityKernel9, field) == offsetof(KernelActivity, field), \
                "CUPTI kernel record field " #field " moved")
PROTON_SAME_OFFSET(kind);
PROTON_SAME_OFFSET(start);
PROTON_SAME_OFFSET(end);
PROTON_SAME_OFFSET(deviceId);
PROTON_SAME_OFFSET(streamId);
PROTON_SAME_OFFSET(correlationId);
PROTON_SAME_OFFSET(name);
PROTON_SAME_OFFSET(graphNodeId);
PROTON_SAME_OFFSET(graphId);
#undef PROTON_SAME_OFFSET

}  // namespace

KernelRecord ToKernelRecord(const KernelActivity& activity, const GraphTracker* graphs) {
  KernelRecord record;
  record.correlation_id = activity.correlationId;
  record.start_ns = activity.start;
  record.end_ns = activity.end;
  record.device_id = activity.deviceId;
  record.stream_id = activity.streamId;
  record.name = activity.name != nullptr ? std::string_view(activity.name) : std::string_view();
  record.graph_id = activity.graphId;
  if (activity.graphId != 0 && graphs != nullptr) {
    record.graph_node_id = graphs->CaptureOrigin(activity.graphNodeId);
    if (CallbackDebug()) {
      std::fprintf(stderr, "[proton] graph record corr=%llu graph=%u node=%llu origin=%llu %s\n",
                   static_cast<unsigned long long>(record.correlation_id), activity.graphId,
                   static_cast<unsigned long long>(activity.graphNodeId),
                   static_cast<unsigned long long>(record.graph_node_id), activity.name);
    }
  }
  return record;
}

BufferStats DecodeActivityBuffer(const CuptiApi& api, uint8_t* buffer, size_t valid_size,
                                 const GraphTracker* graphs, BackendSink* sink) {
  BufferStats stats;
  if (buffer == nullptr || valid_size == 0) return stats;
  CUpti_Activity* activity = nullptr;
  while (api.activity_get_next_record(buffer, valid_size, &activity) == CUPTI_SUCCESS &&
         activity != nullptr) {
    if (activity->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        activity->kind != CUPTI_ACTIVITY_KIND_KERNEL) {
      ++stats.other_records;
      continue;
    }
    const auto* kernel = reinterpret_cast<const KernelActivity*>(activity);
    if (kernel->correlationId > stats.max_correlation_id) {
      stats.max_correlation_id = kernel->correlationId;
    }
    if (kernel->start >= kernel->end) {
      ++stats.incomplete;
      continue;
    }
    ++stats.kernel_records;
    if (sink != nullptr) sink->OnKernelRecord(ToKernelRecord(*kernel, graphs));
  }
  return stats;
}

}  // namespace proton::cupti
