// The launch-latency and kernel-duration sections of the trace reports (trace_report.h).
#include <algorithm>
#include <utility>

#include "viewer/ops/trace_report.h"

namespace proton::viewer {
namespace {

constexpr size_t kWorstLaunches = 10;
constexpr size_t kTopKernels = 20;

// The nearest-rank p-th percentile of sorted, non-empty `v`.
int64_t NearestRank(const std::vector<int64_t>& v, uint64_t p) {
  const uint64_t rank = (p * v.size() + 99) / 100;  // ceil(p/100 * n), at least 1
  return v[std::max<uint64_t>(rank, 1) - 1];
}

// The kernel a Chrome flow end point lands on: the one on its track that runs at that time
// (starting there, as our profiler and Triton write them). -1 when there is none.
int64_t KernelAt(const CollectedTrack& track, int64_t at_ns) {
  const std::vector<KernelSpan>& k = track.kernels;
  auto it = std::upper_bound(k.begin(), k.end(), at_ns,
                             [](int64_t t, const KernelSpan& s) { return t < s.start_ns; });
  if (it == k.begin()) return -1;
  --it;
  return at_ns <= it->end_ns ? it->name : -1;
}

// Per kernel name, the latencies of its launches (CPU launch to kernel start).
std::vector<std::vector<int64_t>> LatenciesByName(const CollectedTrace& trace) {
  std::vector<std::vector<int64_t>> by_name(trace.names.size());
  for (const FlowEnd& end : trace.flow_ends) {
    const auto launch = trace.launches.find(end.flow);
    if (launch == trace.launches.end() || end.track >= trace.tracks.size()) continue;
    const int64_t name = end.name >= 0 ? end.name : KernelAt(trace.tracks[end.track], end.at_ns);
    if (name < 0) continue;
    by_name[name].push_back(end.at_ns - launch->second);
  }
  return by_name;
}

// The `keep` entries of most `key`, as named percentiles.
template <class Key>
std::vector<NamedPercentiles> Top(std::vector<NamedPercentiles> all, size_t keep, Key key) {
  std::stable_sort(all.begin(), all.end(),
                   [&](const NamedPercentiles& a, const NamedPercentiles& b) {
                     return key(a.stats) > key(b.stats);
                   });
  if (all.size() > keep) all.resize(keep);
  return all;
}

void AddLaunch(const CollectedTrace& trace, TraceReport& report) {
  std::vector<std::vector<int64_t>> by_name = LatenciesByName(trace);
  std::vector<int64_t> all;
  std::vector<NamedPercentiles> named;
  for (size_t n = 0; n < by_name.size(); ++n) {
    if (by_name[n].empty()) continue;
    all.insert(all.end(), by_name[n].begin(), by_name[n].end());
    named.push_back({trace.names[n], TakePercentiles(by_name[n])});
  }
  report.launch = TakePercentiles(all);
  report.worst_launch =
      Top(std::move(named), kWorstLaunches, [](const Percentiles& p) { return p.p99_ns; });
}

void AddDurations(const CollectedTrace& trace, TraceReport& report) {
  std::vector<std::vector<int64_t>> by_name(trace.names.size());
  for (const CollectedTrack& t : trace.tracks) {
    for (const KernelSpan& k : t.kernels) by_name[k.name].push_back(k.end_ns - k.start_ns);
  }
  std::vector<NamedPercentiles> named;
  for (size_t n = 0; n < by_name.size(); ++n) {
    if (by_name[n].empty()) continue;
    named.push_back({trace.names[n], TakePercentiles(by_name[n])});
    std::vector<int64_t>().swap(by_name[n]);  // freed as it goes: 1M durations are 8 MB
  }
  report.kernel_durations =
      Top(std::move(named), kTopKernels, [](const Percentiles& p) { return p.total_ns; });
}

}  // namespace

Percentiles TakePercentiles(std::vector<int64_t>& values) {
  Percentiles p;
  if (values.empty()) return p;
  std::sort(values.begin(), values.end());
  p.count = values.size();
  for (const int64_t v : values) p.total_ns += v;
  p.p50_ns = NearestRank(values, 50);
  p.p90_ns = NearestRank(values, 90);
  p.p99_ns = NearestRank(values, 99);
  p.max_ns = values.back();
  return p;
}

void AddLaunchAndDurations(const CollectedTrace& trace, TraceReport& report) {
  AddLaunch(trace, report);
  AddDurations(trace, report);
}

}  // namespace proton::viewer
