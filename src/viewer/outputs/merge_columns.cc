// See merge_columns.h.
#include "viewer/outputs/merge_columns.h"

namespace proton::viewer {

const char* MergeStatSuffix(MergeStat stat) {
  switch (stat) {
    case MergeStat::kMin: return ":min";
    case MergeStat::kMedian: return ":median";
    case MergeStat::kMean: return ":mean";
    case MergeStat::kMax: return ":max";
    case MergeStat::kImbalance: return ":imbalance";
    case MergeStat::kArgmax: return ":argmax";
  }
  return "";
}

size_t MergePrintPosition(MergeStat stat) {
  for (size_t i = 0; i < kMergeStatCount; ++i)
    if (kMergePrintOrder[i] == stat) return i;
  return 0;
}

}  // namespace proton::viewer
