// --stragglers (viewer.md §11.15): over the files of N ranks with steps (the part files of
// periodic-flushing runs), each step's slowest rank and its lag behind the step's median, and
// the ranks slow in most of their steps (persistent stragglers). Plain numbers in, plain
// numbers out: which file is which rank and step, and which frame explains a lag, is the
// merge's business (merge/merge_stragglers.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "viewer/common/tree_names.h"

namespace proton::viewer {

struct StragglerInput {
  std::vector<std::string> ranks;           // labels, in rank order
  std::vector<int64_t> steps;               // step numbers, increasing
  std::vector<std::vector<double>> values;  // [step][rank]; NaN: no value for that rank
  double slow_pct = 5.0;                    // slow: more than this percent above the median
};

struct StepStragglers {
  int64_t step = 0;
  size_t ranks = 0;          // ranks with a value in the step
  double median = kMissing;  // of those values (an even count: the mean of the middle two)
  size_t slowest = 0;        // the rank with the largest value (the first one on a tie)
  double slowest_value = kMissing;
  double lag = kMissing;  // (slowest − median) / median; NaN when the median is not > 0
  // The frame that explains most of the lag (filled by the caller): its path from ROOT, and
  // how much more the slowest rank spent in it than the median of the step's ranks.
  std::vector<std::string> top_frame;
  double top_excess = kMissing;
};

struct RankStragglers {
  size_t steps = 0;              // steps the rank has a value in
  size_t slow = 0;               // of them, those where it was slow
  size_t slowest = 0;            // of them, those where it was the slowest
  double median_lag = kMissing;  // the median over its steps of (value − median) / median
  bool persistent = false;       // slow in more than half of its steps
};

struct StragglerReport {
  std::string item;  // the -m item the values are of
  double slow_pct = 5.0;
  std::vector<std::string> ranks;
  std::vector<std::vector<std::string>> files;  // [step][rank]: the FILE ("" = none)
  std::vector<std::vector<double>> values;      // as in StragglerInput
  std::vector<StepStragglers> steps;
  std::vector<RankStragglers> rank_stats;

  // (value − median) / median of `rank` in step `s`; NaN without either.
  double Lag(size_t s, size_t rank) const;
};

// Each step's slowest rank and lag, and each rank's counts (the caller fills item, files and
// the steps' top frames).
StragglerReport ComputeStragglers(const StragglerInput& in);

// The median of the numbers in `values` (NaN ones left out); NaN when there is none.
double MedianOf(std::vector<double> values);

}  // namespace proton::viewer
