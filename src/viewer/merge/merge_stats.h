// The statistics of --merge=stats (viewer.md §11.11) over one node's values in the files that
// hold it: min, median, mean, max, imbalance (max / mean) and argmax (the file index).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

#include "viewer/common/tree_names.h"
#include "viewer/outputs/merge_columns.h"

namespace proton::viewer {

struct MergeStats {
  double min = kMissing;
  double median = kMissing;
  double mean = kMissing;
  double max = kMissing;
  double imbalance = kMissing;  // max / mean; NaN when the mean is 0 or not finite
  double argmax = kMissing;     // index of the first file holding the max; NaN without values
  double get(MergeStat stat) const;
};

// One value of one node in one file.
struct FileValue {
  uint32_t file;  // position among the FILE arguments, from 0
  double value;
};

// Statistics over `values` (in increasing file order). NaN values are left out, as are the
// files that do not hold the node (the caller does not pass them): every statistic is over
// the numbers only, and all are NaN when there is none. The median of an even count is the
// mean of the two middle values (Python's statistics.median). `scratch` is reused storage.
MergeStats ComputeMergeStats(std::span<const FileValue> values, std::vector<double>& scratch);

}  // namespace proton::viewer
