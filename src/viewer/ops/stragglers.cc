// See stragglers.h.
#include "viewer/ops/stragglers.h"

#include <algorithm>
#include <cmath>

namespace proton::viewer {
namespace {

double RelativeLag(double value, double median) {
  if (std::isnan(value) || !(median > 0)) return kMissing;
  return (value - median) / median;
}

StepStragglers StepOf(const StragglerInput& in, size_t s) {
  StepStragglers step;
  step.step = in.steps[s];
  const std::vector<double>& values = in.values[s];
  for (size_t r = 0; r < values.size(); ++r) {
    if (std::isnan(values[r])) continue;
    if (step.ranks == 0 || values[r] > step.slowest_value) {
      step.slowest = r;
      step.slowest_value = values[r];
    }
    ++step.ranks;
  }
  step.median = MedianOf(values);
  step.lag = RelativeLag(step.slowest_value, step.median);
  return step;
}

}  // namespace

double MedianOf(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
               values.end());
  if (values.empty()) return kMissing;
  const size_t n = values.size();
  const auto middle = values.begin() + static_cast<ptrdiff_t>(n / 2);
  std::nth_element(values.begin(), middle, values.end());
  const double upper = *middle;
  if (n % 2 == 1) return upper;
  return (*std::max_element(values.begin(), middle) + upper) / 2;
}

double StragglerReport::Lag(size_t s, size_t rank) const {
  return RelativeLag(values[s][rank], steps[s].median);
}

StragglerReport ComputeStragglers(const StragglerInput& in) {
  StragglerReport report;
  report.slow_pct = in.slow_pct;
  report.ranks = in.ranks;
  report.values = in.values;
  for (size_t s = 0; s < in.steps.size(); ++s) report.steps.push_back(StepOf(in, s));
  report.rank_stats.resize(in.ranks.size());
  for (size_t r = 0; r < in.ranks.size(); ++r) {
    RankStragglers& rank = report.rank_stats[r];
    std::vector<double> lags;
    for (size_t s = 0; s < in.steps.size(); ++s) {
      if (std::isnan(in.values[s][r])) continue;
      ++rank.steps;
      const double lag = report.Lag(s, r);
      lags.push_back(lag);
      if (lag * 100.0 > in.slow_pct) ++rank.slow;  // NaN is never slow
      if (report.steps[s].slowest == r && report.steps[s].ranks > 1) ++rank.slowest;
    }
    rank.median_lag = MedianOf(lags);
    rank.persistent = rank.steps > 0 && 2 * rank.slow > rank.steps;
  }
  return report;
}

}  // namespace proton::viewer
