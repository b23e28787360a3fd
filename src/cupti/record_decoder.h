// Decoding of completed CUPTI activity buffers into the core's KernelRecord (profiler.md §5.4).
// Records are read through the newest kernel record struct of the headers we build with; the
// fields used sit at the same offsets in every version since CUpti_ActivityKernel5 (checked by
// static_asserts in the .cc), so an older CUPTI's records decode the same way.
// Threads: the buffer-completion thread (CUPTI's, or the thread calling cuptiActivityFlushAll).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/backend/backend.h"
#include "cupti/cupti_api.h"
#include "cupti/graph_tracker.h"

namespace proton::cupti {

using KernelActivity = CUpti_ActivityKernel10;

struct BufferStats {
  uint64_t kernel_records = 0;      // complete records handed to the sink
  uint64_t incomplete = 0;          // start >= end, skipped
  uint64_t other_records = 0;       // kinds we did not ask for, skipped
  uint64_t max_correlation_id = 0;  // highest correlation id among kernel records
};

// The neutral record of one CUPTI kernel activity. `graphs` (may be null) maps a graph node to
// the capture key the core knows.
KernelRecord ToKernelRecord(const KernelActivity& activity, const GraphTracker* graphs);

// Walks `buffer` with cuptiActivityGetNextRecord until CUPTI_ERROR_MAX_LIMIT_REACHED and hands
// every complete kernel record to `sink`. Never throws.
BufferStats DecodeActivityBuffer(const CuptiApi& api, uint8_t* buffer, size_t valid_size,
                                 const GraphTracker* graphs, BackendSink* sink);

}  // namespace proton::cupti
