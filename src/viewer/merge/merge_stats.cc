// See merge_stats.h.
#include "viewer/merge/merge_stats.h"

#include <algorithm>
#include <cmath>

namespace proton::viewer {

double MergeStats::get(MergeStat stat) const {
  switch (stat) {
    case MergeStat::kMin: return min;
    case MergeStat::kMedian: return median;
    case MergeStat::kMean: return mean;
    case MergeStat::kMax: return max;
    case MergeStat::kImbalance: return imbalance;
    case MergeStat::kArgmax: return argmax;
  }
  return kMissing;
}

MergeStats ComputeMergeStats(std::span<const FileValue> values, std::vector<double>& scratch) {
  MergeStats s;
  scratch.clear();
  double sum = 0;
  for (const FileValue& fv : values) {
    if (std::isnan(fv.value)) continue;
    if (scratch.empty() || fv.value > s.max) {  // strict: the first file holding the max wins
      s.max = fv.value;
      s.argmax = fv.file;
    }
    if (scratch.empty() || fv.value < s.min) s.min = fv.value;
    sum += fv.value;
    scratch.push_back(fv.value);
  }
  if (scratch.empty()) return s;
  const size_t n = scratch.size();
  s.mean = sum / static_cast<double>(n);
  const auto mid = scratch.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(scratch.begin(), mid, scratch.end());
  if (n % 2 == 1) {
    s.median = *mid;
  } else {
    const double upper = *mid;
    const double lower = *std::max_element(scratch.begin(), mid);
    s.median = (lower + upper) / 2;
  }
  s.imbalance = s.mean != 0 && std::isfinite(s.mean) ? s.max / s.mean : kMissing;
  return s;
}

}  // namespace proton::viewer
