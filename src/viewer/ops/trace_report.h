// The trace reports (viewer.md §11.18) of one trace: per GPU stream busy and idle time and
// its idle gaps by length, per device how much communication (NCCL) kernel time overlaps
// compute, launch latency (CPU launch to kernel start) and per-kernel-name durations.
// Percentiles are nearest-rank: the p-th of n sorted values is the ceil(p/100 * n)-th.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"
#include "viewer/ops/trace_collect.h"
#include "viewer/ops/trace_strip.h"

namespace proton::viewer {

// Idle gaps by length: < 10 us, 10-100 us, 0.1-1 ms, 1-10 ms, >= 10 ms.
inline constexpr size_t kGapBuckets = 5;
inline constexpr std::array<int64_t, kGapBuckets - 1> kGapBucketLimitsNs = {10'000, 100'000,
                                                                            1'000'000, 10'000'000};
std::string_view GapBucketName(size_t bucket);  // "<10us", "10-100us", ...

struct GapBucket {
  uint64_t count = 0;
  int64_t total_ns = 0;
};

struct StreamStats {
  std::string name;  // the lane's name ("GPU 0 Stream 7", "Graph: Stream 3", ...)
  int64_t device = traces::kUnknown;
  uint64_t kernels = 0;
  int64_t first_ns = 0;  // first kernel start, relative to the trace's first kernel
  int64_t span_ns = 0;   // first kernel start to last kernel end
  int64_t busy_ns = 0;   // the union of its kernels
  int64_t idle_ns = 0;   // span - busy
  std::array<GapBucket, kGapBuckets> gaps{};
  std::vector<StripRect> strip;  // its busy time over the trace's span, for --html
};

struct IdleGap {
  size_t stream = 0;  // index into TraceReport::streams
  int64_t at_ns = 0;  // where it starts, relative to the trace's first kernel
  int64_t length_ns = 0;
  std::string before;  // the kernel that ended last before it
  std::string after;   // the kernel that starts it off again
};

struct DeviceOverlap {
  int64_t device = traces::kUnknown;
  uint64_t comm_kernels = 0;
  int64_t comm_ns = 0;     // the union of its communication kernels
  int64_t overlap_ns = 0;  // of which some compute kernel on the device runs too
};

struct Percentiles {
  uint64_t count = 0;
  int64_t total_ns = 0;
  int64_t p50_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
};

struct NamedPercentiles {
  std::string name;
  Percentiles stats;
};

struct TraceReport {
  std::string file;  // as named in messages
  uint64_t kernels = 0;
  int64_t span_ns = 0;                 // the trace's first kernel start to its last kernel end
  std::vector<StreamStats> streams;    // by device, then lane name
  std::vector<IdleGap> largest_gaps;   // the 10 longest, longest first
  std::vector<DeviceOverlap> overlap;  // devices with a communication kernel
  Percentiles launch;                  // over kernels with a launch flow
  std::vector<NamedPercentiles> worst_launch;      // the 10 kernel names of highest p99
  std::vector<NamedPercentiles> kernel_durations;  // the 20 names of most total time
  uint64_t kernel_names = 0;                       // all names, shown or not
};

// Sorts `values` and takes its nearest-rank percentiles (all zero for none).
Percentiles TakePercentiles(std::vector<int64_t>& values);

// Whether a kernel's name makes it communication: it contains "nccl" (any case), which
// covers ncclDevKernel_*, ncclKernel_* and the rest of NCCL's.
bool IsCommunicationKernel(std::string_view name);

// The launch and duration sections (trace_latency.cc), from kernels sorted per track.
void AddLaunchAndDurations(const CollectedTrace& trace, TraceReport& report);

// The report of a collected trace (its kernel arrays are sorted in place).
TraceReport BuildTraceReport(CollectedTrace& trace, std::string file);

// Reads `path` (errors: the reader's one line) and builds its report.
Result<TraceReport> ReportTraceFile(const std::string& path);

}  // namespace proton::viewer
