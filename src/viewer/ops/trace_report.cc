// See trace_report.h. Streams and devices here; launch latency and durations in
// trace_latency.cc.
#include "viewer/ops/trace_report.h"

#include <algorithm>
#include <utility>

#include "util/out_of_memory.h"
#include "viewer/traces/trace_reader.h"

namespace proton::viewer {
namespace {

constexpr size_t kLargestGaps = 10;

struct Interval {
  int64_t start = 0, end = 0;
};

// A gap before its names are looked up: the kernels either side as name indices.
struct GapRef {
  int64_t length_ns = 0;
  size_t stream = 0;
  int64_t at_ns = 0;
  uint32_t before = 0, after = 0;
  bool operator>(const GapRef& o) const { return length_ns > o.length_ns; }
};

// The longest gaps seen so far (a min-heap of at most kLargestGaps).
class LongestGaps {
 public:
  void Offer(const GapRef& gap) {
    if (heap_.size() == kLargestGaps && !(gap > heap_.front())) return;
    heap_.push_back(gap);
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    if (heap_.size() > kLargestGaps) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      heap_.pop_back();
    }
  }
  std::vector<GapRef> Sorted() {
    std::sort(heap_.begin(), heap_.end(), std::greater<>());
    return heap_;
  }

 private:
  std::vector<GapRef> heap_;
};

size_t BucketOf(int64_t length_ns) {
  size_t b = 0;
  while (b < kGapBucketLimitsNs.size() && length_ns >= kGapBucketLimitsNs[b]) ++b;
  return b;
}

// One stream's busy time and gaps, its kernels sorted by start: overlapping kernels (which
// one stream should not have, but a graph lane may) count once.
StreamStats SweepStream(const CollectedTrack& track, size_t index, int64_t origin,
                        LongestGaps& longest) {
  StreamStats s;
  s.name = track.name;
  s.device = track.device;
  s.kernels = track.kernels.size();
  const std::vector<KernelSpan>& k = track.kernels;
  int64_t run_start = k[0].start_ns, run_end = k[0].end_ns;
  uint32_t last_name = k[0].name;
  for (size_t i = 1; i < k.size(); ++i) {
    if (k[i].start_ns > run_end) {
      const int64_t gap = k[i].start_ns - run_end;
      GapBucket& bucket = s.gaps[BucketOf(gap)];
      ++bucket.count;
      bucket.total_ns += gap;
      longest.Offer({gap, index, run_end - origin, last_name, k[i].name});
      s.busy_ns += run_end - run_start;
      run_start = k[i].start_ns;
    }
    if (k[i].end_ns >= run_end) {
      run_end = k[i].end_ns;
      last_name = k[i].name;
    }
  }
  s.busy_ns += run_end - run_start;
  s.first_ns = k[0].start_ns - origin;
  s.span_ns = run_end - k[0].start_ns;
  s.idle_ns = s.span_ns - s.busy_ns;
  return s;
}

// Sorted, overlapping intervals merged into disjoint ones.
std::vector<Interval> Union(std::vector<Interval> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  std::vector<Interval> out;
  for (const Interval& s : spans) {
    if (!out.empty() && s.start <= out.back().end) {
      out.back().end = std::max(out.back().end, s.end);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

int64_t Length(const std::vector<Interval>& spans) {
  int64_t total = 0;
  for (const Interval& s : spans) total += s.end - s.start;
  return total;
}

// The time two disjoint, sorted interval lists share.
int64_t Intersection(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  int64_t total = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t lo = std::max(a[i].start, b[j].start);
    const int64_t hi = std::min(a[i].end, b[j].end);
    if (hi > lo) total += hi - lo;
    (a[i].end < b[j].end) ? ++i : ++j;
  }
  return total;
}

// Per device with a communication kernel: its communication time and the part of it during
// which a compute kernel of the same device runs (on any of its streams).
std::vector<DeviceOverlap> Overlaps(const CollectedTrace& trace, const std::vector<bool>& comm) {
  std::vector<int64_t> devices;
  for (const CollectedTrack& t : trace.tracks) {
    for (const KernelSpan& k : t.kernels) {
      if (comm[k.name]) {
        devices.push_back(t.device);
        break;
      }
    }
  }
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  std::vector<DeviceOverlap> out;
  for (const int64_t device : devices) {
    DeviceOverlap d{.device = device};
    std::vector<Interval> comm_spans, compute_spans;
    for (const CollectedTrack& t : trace.tracks) {
      if (t.device != device) continue;
      for (const KernelSpan& k : t.kernels) {
        (comm[k.name] ? comm_spans : compute_spans).push_back({k.start_ns, k.end_ns});
      }
    }
    d.comm_kernels = comm_spans.size();
    const std::vector<Interval> comm_union = Union(std::move(comm_spans));
    d.comm_ns = Length(comm_union);
    d.overlap_ns = Intersection(comm_union, Union(std::move(compute_spans)));
    out.push_back(d);
  }
  return out;
}

}  // namespace

std::string_view GapBucketName(size_t bucket) {
  static constexpr std::array<std::string_view, kGapBuckets> kNames = {
      "<10us", "10-100us", "0.1-1ms", "1-10ms", ">=10ms"};
  return kNames[bucket];
}

bool IsCommunicationKernel(std::string_view name) {
  for (size_t i = 0; i + 4 <= name.size(); ++i) {
    const auto lower = [&](size_t k) { return static_cast<char>(name[i + k] | 0x20); };
    if (lower(0) == 'n' && lower(1) == 'c' && lower(2) == 'c' && lower(3) == 'l') return true;
  }
  return false;
}

// Streams (tracks with kernels) sorted, swept, and their longest gaps named.
void AddStreams(CollectedTrace& trace, TraceReport& report) {
  int64_t origin = INT64_MAX;
  std::vector<size_t> order;
  for (size_t i = 0; i < trace.tracks.size(); ++i) {
    std::vector<KernelSpan>& k = trace.tracks[i].kernels;
    if (k.empty()) continue;
    std::sort(k.begin(), k.end(),
              [](const KernelSpan& a, const KernelSpan& b) { return a.start_ns < b.start_ns; });
    origin = std::min(origin, k.front().start_ns);
    order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const CollectedTrack &ta = trace.tracks[a], &tb = trace.tracks[b];
    return std::pair(ta.device, ta.name) < std::pair(tb.device, tb.name);
  });
  LongestGaps longest;
  for (const size_t i : order) {
    report.streams.push_back(SweepStream(trace.tracks[i], report.streams.size(), origin, longest));
    const StreamStats& s = report.streams.back();
    report.span_ns = std::max(report.span_ns, s.first_ns + s.span_ns);
  }
  // The strips once the trace's span is known, so that every stream's shares one time axis.
  for (size_t s = 0; s < order.size(); ++s) {
    report.streams[s].strip =
        DownsampleSpans(trace.tracks[order[s]].kernels, origin, report.span_ns);
  }
  for (const GapRef& g : longest.Sorted()) {
    report.largest_gaps.push_back(
        {g.stream, g.at_ns, g.length_ns, trace.names[g.before], trace.names[g.after]});
  }
}

TraceReport BuildTraceReport(CollectedTrace& trace, std::string file) {
  TraceReport report;
  report.file = std::move(file);
  report.kernels = trace.kernels;
  report.kernel_names = trace.names.size();
  AddStreams(trace, report);
  std::vector<bool> comm(trace.names.size());
  for (size_t n = 0; n < trace.names.size(); ++n) comm[n] = IsCommunicationKernel(trace.names[n]);
  report.overlap = Overlaps(trace, comm);
  AddLaunchAndDurations(trace, report);
  return report;
}

Result<TraceReport> ReportTraceFile(const std::string& path) {
  return CatchOutOfMemory("reading '" + path + "'", [&]() -> Result<TraceReport> {
    TraceCollector collector;
    PROTON_RETURN_IF_ERROR(traces::ReadTraceFile(path, collector));
    return BuildTraceReport(collector.trace(), path);
  });
}

}  // namespace proton::viewer
