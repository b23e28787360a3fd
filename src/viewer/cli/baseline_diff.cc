// See baseline_diff.h.
#include "viewer/cli/baseline_diff.h"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "viewer/common/quoted.h"
#include "viewer/common/run_names.h"
#include "viewer/outputs/merge_columns.h"

namespace proton::viewer {
namespace {

bool Exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

Result<std::vector<std::string>> Glob(const std::string& pattern) {
  glob_t found{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &found);
  std::vector<std::string> paths(found.gl_pathv, found.gl_pathv + found.gl_pathc);
  ::globfree(&found);
  if (rc != 0 || paths.empty()) {
    return Status::Error("--baseline " + Quoted(pattern) + ": no file matches");
  }
  std::sort(paths.begin(), paths.end(),
            [](const std::string& a, const std::string& b) { return NaturalLess(a, b); });
  return paths;
}

bool IsInclusiveLabel(std::string_view label) {
  return label.find(" (inc)") != std::string_view::npos;
}

// Both sides' columns must be inclusive on both or exclusive on both (§6).
Status CheckSides(const BaselineDiff& d, const std::vector<std::string>& items) {
  for (size_t c = 0; c < items.size(); ++c) {
    const std::string& now = d.now.in.labels[MergeColumn(c, MergeStat::kMedian)];
    const std::string& base = d.base.in.labels[MergeColumn(c, MergeStat::kMedian)];
    if (IsInclusiveLabel(now) == IsInclusiveLabel(base)) continue;
    const bool inc = IsInclusiveLabel(now);
    return Status::Error("cannot compare " + items[c] + ": it is an " +
                         (inc ? "inclusive" : "exclusive") + " metric in the FILEs but an " +
                         (inc ? "exclusive" : "inclusive") + " metric in the baseline FILEs");
  }
  return Status();
}

// §6's values over the union: now − base where both are numbers, now's value where either
// is NaN or the frame is only in the FILEs, NaN where it is only in the baselines.
void FillMedianDiff(BaselineDiff& d, size_t items) {
  const DiffUnion& u = d.diff;
  for (size_t c = 0; c < items; ++c) {
    const size_t column = MergeColumn(c, MergeStat::kMedian);
    const std::vector<double>& now = d.now.in.columns[column];
    const std::vector<double>& base = d.base.in.columns[column];
    std::vector<double>& values = d.in.columns.emplace_back(u.tree.size(), kMissing);
    for (NodeId id = 0; id < u.tree.size(); ++id) {
      if (u.left[id] == kNoNode) continue;
      const double lv = now[u.left[id]];
      const double rv = u.right[id] == kNoNode ? kMissing : base[u.right[id]];
      values[id] = std::isnan(lv) || std::isnan(rv) ? lv : lv - rv;
    }
    d.in.labels.push_back(d.now.in.labels[column]);
  }
  if (u.sides_differ) {
    d.in.sides.assign(u.tree.size(), Side::kBoth);
    for (NodeId id = 0; id < u.tree.size(); ++id) {
      if (u.right[id] == kNoNode) d.in.sides[id] = Side::kLeftOnly;
      if (u.left[id] == kNoNode) d.in.sides[id] = Side::kRightOnly;
    }
  }
  d.in.row_order = u.row_order;
}

// One side's spread of the first column at merged-tree node n (nothing for kNoNode).
Spread SpreadAt(const MergedProfiles& m, NodeId n) {
  if (n == kNoNode) return Spread();
  const NodeId u = m.union_of[n];
  std::vector<double> values;
  for (size_t f = 0; f < m.store.files.size(); ++f) {
    if (!m.store.values[f].empty() && m.store.Holds(f, u)) values.push_back(m.store.Value(f, 0, u));
  }
  return SpreadOf(std::move(values));
}

}  // namespace

Result<std::vector<std::string>> ExpandBaselines(const std::vector<std::string>& values) {
  std::vector<std::string> files;
  for (const std::string& value : values) {
    if (value == "-" || Exists(value) || value.find_first_of("*?[") == std::string::npos) {
      files.push_back(value);  // a missing file is CheckInput's "cannot open" error
      continue;
    }
    PROTON_ASSIGN_OR_RETURN(std::vector<std::string> matched, Glob(value));
    files.insert(files.end(), matched.begin(), matched.end());
  }
  return files;
}

Result<BaselineDiff> BuildBaselineDiff(const InputOptions& input,
                                       const std::vector<std::string>& baselines,
                                       const ViewOptions& view) {
  const bool normalize = view.match == MatchMode::kNormalized;
  InputOptions side;
  side.merge = MergeMode::kStats;
  side.files = input.files;
  BaselineDiff d;
  PROTON_ASSIGN_OR_RETURN(d.now, MergeProfiles(side, view, normalize));
  side.files = baselines;
  PROTON_ASSIGN_OR_RETURN(d.base, MergeProfiles(side, view, normalize));
  PROTON_RETURN_IF_ERROR(CheckSides(d, view.metrics));
  d.diff = BuildDiffUnion(d.now.tree, d.base.tree);
  FillMedianDiff(d, view.metrics.size());
  return d;
}

NoiseGateInput MakeNoiseGateInput(const BaselineDiff& d, const std::vector<std::string>& items,
                                  const OutputOptions& output) {
  NoiseGateInput g;
  const DiffUnion& u = d.diff;
  for (NodeId id = 0; id < u.tree.size(); ++id) {
    g.now.push_back(SpreadAt(d.now, u.left[id]));
    g.base.push_back(SpreadAt(d.base, u.right[id]));
  }
  g.label = items[0];
  g.pct = output.fail_above_pct;
  g.min = output.fail_above_min;
  g.spec = output.fail_above_text;
  g.now_files = d.now.store.files.size();
  g.base_files = d.base.store.files.size();
  return g;
}

}  // namespace proton::viewer
