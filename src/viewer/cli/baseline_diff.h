// --baseline (viewer.md §11.16): the FILEs against the baseline FILEs by their medians. Each
// side is merged as --merge=stats merges (§11.11); the printed tree is the union of the two
// merged trees, each frame's value the difference of the medians (as §6 subtracts one profile
// from another), and --fail-above judges each frame's growth against the runs' own spread
// (ops/noise_gate.h).
#pragma once

#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/common/options.h"
#include "viewer/merge/merge_profiles.h"
#include "viewer/ops/noise_gate.h"

namespace proton::viewer {

// The baseline FILEs: each --baseline value that names a file (or '-') as it is; a value
// that names none and holds *, ? or [ expanded like the shell's glob, in natural order
// (rank2 before rank10). Error: "--baseline 'P': no file matches".
Result<std::vector<std::string>> ExpandBaselines(const std::vector<std::string>& values);

struct BaselineDiff {
  MergedProfiles now;   // the FILEs
  MergedProfiles base;  // the baseline FILEs
  DiffUnion diff;       // of now.tree and base.tree
  PrintInput in;        // in.tree is left to the caller (&diff.tree)
};

// Merges both sides and builds the printed differences of the medians; `baselines` are
// ExpandBaselines' files. Errors: either side's merge errors, and a column inclusive on one
// side and exclusive on the other ("cannot compare M: ...").
Result<BaselineDiff> BuildBaselineDiff(const InputOptions& input,
                                       const std::vector<std::string>& baselines,
                                       const ViewOptions& view);

// --fail-above's view of `d`: per union node the first column's spread on each side
// (gate.tree is left to the caller).
NoiseGateInput MakeNoiseGateInput(const BaselineDiff& d, const std::vector<std::string>& items,
                                  const OutputOptions& output);

}  // namespace proton::viewer
