// --fail-above over several runs per side (viewer.md §11.16): with --baseline, each side is
// a set of files (whole runs, or the part files of steady steps), a frame's value on a side is
// its median over the side's files, and a growth counts only when it is also larger than the
// runs' own spread: the larger of the two sides' interquartile ranges. So a CI gate on noisy
// timings does not flap, while a single file per side judges exactly as --diff-profile does.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "viewer/common/tree_names.h"

namespace proton::viewer {

// The median and quartiles of one frame's values on one side (NaN left out): quartiles by
// linear interpolation between the sorted values, as Python's
// statistics.quantiles(values, n=4, method="inclusive") and numpy's default percentile.
struct Spread {
  size_t n = 0;  // values (0: the side lacks the frame)
  double median = kMissing;
  double q1 = kMissing;
  double q3 = kMissing;
  double iqr() const { return q3 - q1; }
};

Spread SpreadOf(std::vector<double> values);

// Whether the median grew from `base` to `now` past the gate: by more than `min`, by more
// than pct percent of |base median|, and by more than max(IQR(base), IQR(now)). A side
// without values never fails.
bool GrewBeyondNoise(const Spread& now, const Spread& base, double pct, double min);

struct NoiseGateInput {
  const ProfileTree* tree = nullptr;  // the union of the two sides' merged trees
  std::vector<Spread> now;            // per union node: FILEs' spread of the first column
  std::vector<Spread> base;           // per union node: the baselines' spread
  std::string label;                  // the first -m item, as given
  double pct = 0.0;
  double min = 0.0;
  std::string spec;  // PCT[,MIN] as typed
  size_t now_files = 0;
  size_t base_files = 0;
};

// Hands `write` one line per failing frame in print order (every depth), as fail_gate.h does,
// each ending in "\n"; returns whether some frame failed.
bool ReportNoiseGateFailures(const NoiseGateInput& in,
                             const std::function<void(std::string_view)>& write);

}  // namespace proton::viewer
