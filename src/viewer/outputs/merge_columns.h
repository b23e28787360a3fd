// The columns of --merge=stats (viewer.md §11.11) as the merge printer lays them out: per -m
// item one column per statistic. The outputs that read the printer's input (--html) find a
// statistic's column here, so they need not depend on the merge itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace proton::viewer {

// The statistics columns in their --export order; the printer shows kMedian first.
enum class MergeStat : uint8_t { kMin, kMedian, kMean, kMax, kImbalance, kArgmax };
inline constexpr MergeStat kAllMergeStats[] = {MergeStat::kMin,       MergeStat::kMedian,
                                               MergeStat::kMean,      MergeStat::kMax,
                                               MergeStat::kImbalance, MergeStat::kArgmax};
// The printed order: the median first, since the first printed column drives -t, the
// colours and --print-sorted.
inline constexpr MergeStat kMergePrintOrder[] = {MergeStat::kMedian,    MergeStat::kMin,
                                                 MergeStat::kMean,      MergeStat::kMax,
                                                 MergeStat::kImbalance, MergeStat::kArgmax};
inline constexpr size_t kMergeStatCount = std::size(kMergePrintOrder);
// Position of `stat` in kMergePrintOrder.
size_t MergePrintPosition(MergeStat stat);
// The printed column of `stat` of the c-th -m item: the printer shows kMergeStatCount
// columns per item, in kMergePrintOrder.
inline size_t MergeColumn(size_t item, MergeStat stat) {
  return item * kMergeStatCount + MergePrintPosition(stat);
}
// ":min", ":median", ... : appended to a column's label or -m item.
const char* MergeStatSuffix(MergeStat stat);

}  // namespace proton::viewer
