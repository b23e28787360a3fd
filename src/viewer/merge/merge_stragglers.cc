// See merge_stragglers.h.
#include "viewer/merge/merge_stragglers.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "viewer/common/json_text.h"
#include "viewer/common/quoted.h"
#include "viewer/common/run_names.h"

namespace proton::viewer {
namespace {

constexpr size_t kNoFile = static_cast<size_t>(-1);

// Ranks (prefixes, in natural order), steps, and per [step][rank] the FILE's index.
struct Layout {
  std::vector<std::string> prefixes;
  std::vector<int64_t> steps;
  std::vector<std::vector<size_t>> file;
};

Layout LayOut(const std::vector<std::string>& files) {
  std::set<std::string, bool (*)(std::string_view, std::string_view)> prefixes(NaturalLess);
  std::set<int64_t> steps;
  std::vector<PartFileName> names;
  for (const std::string& f : files) {
    names.push_back(*ParsePartFileName(f));
    prefixes.insert(names.back().prefix);
    steps.insert(names.back().phase);
  }
  Layout layout{{prefixes.begin(), prefixes.end()}, {steps.begin(), steps.end()}, {}};
  layout.file.assign(layout.steps.size(), std::vector<size_t>(layout.prefixes.size(), kNoFile));
  for (size_t f = 0; f < names.size(); ++f) {
    const auto s = std::lower_bound(layout.steps.begin(), layout.steps.end(), names[f].phase);
    const auto r = std::lower_bound(layout.prefixes.begin(), layout.prefixes.end(), names[f].prefix,
                                    NaturalLess);
    layout.file[s - layout.steps.begin()][r - layout.prefixes.begin()] = f;
  }
  return layout;
}

double ValueAt(const MergeStore& store, size_t f, NodeId u) {
  if (f == kNoFile || store.values[f].empty() || !store.Holds(f, u)) return kMissing;
  return store.Value(f, 0, u);
}

// The printed frame without children where the step's slowest rank spent the most beyond the
// median of the step's ranks that ran it.
void FindTopFrame(const MergedProfiles& merged, const std::vector<size_t>& step_files,
                  StepStragglers& step) {
  const ProfileTree& tree = merged.tree;
  const size_t slow_file = step_files[step.slowest];
  std::vector<double> values(step_files.size());
  NodeId best = kNoNode;
  for (NodeId n = 1; n < tree.size(); ++n) {
    if (!tree.children(n).empty()) continue;
    const NodeId u = merged.union_of[n];
    const double slow = ValueAt(merged.store, slow_file, u);
    if (std::isnan(slow)) continue;
    for (size_t r = 0; r < step_files.size(); ++r)
      values[r] = ValueAt(merged.store, step_files[r], u);
    const double excess = slow - MedianOf(values);
    if (excess > 0 && (best == kNoNode || excess > step.top_excess)) {
      best = n;
      step.top_excess = excess;
    }
  }
  if (best == kNoNode) return;
  for (std::string_view name : FramePath(tree, best)) step.top_frame.emplace_back(name);
}

}  // namespace

Status CheckStragglerFiles(const std::vector<std::string>& files) {
  std::map<std::pair<std::string, int64_t>, std::string> seen;
  std::set<std::string> ranks;
  for (const std::string& file : files) {
    const std::optional<PartFileName> part = ParsePartFileName(file);
    if (!part) {
      return Status::UsageError("--stragglers needs part files named NAME.part_<phase>.<format>: " +
                                Quoted(file));
    }
    auto [it, added] = seen.emplace(std::make_pair(part->prefix, part->phase), file);
    if (!added) {
      return Status::UsageError("--stragglers: " + Quoted(it->second) + " and " + Quoted(file) +
                                " are both phase " + std::to_string(part->phase) + " of " +
                                Quoted(part->prefix));
    }
    ranks.insert(part->prefix);
  }
  if (ranks.size() < 2) {
    return Status::UsageError(
        "--stragglers needs the parts of two ranks or more (every FILE "
        "is a part of " +
        Quoted(*ranks.begin()) + ")");
  }
  return Status();
}

StragglerReport BuildStragglers(const MergedProfiles& merged, const std::vector<std::string>& files,
                                const std::string& item, double slow_pct) {
  const Layout layout = LayOut(files);
  StragglerInput in;
  in.ranks = ShortLabels(layout.prefixes);
  in.steps = layout.steps;
  in.slow_pct = slow_pct;
  for (const std::vector<size_t>& step_files : layout.file) {
    std::vector<double>& values = in.values.emplace_back();
    for (size_t f : step_files) values.push_back(ValueAt(merged.store, f, 0));  // ROOT
  }
  StragglerReport report = ComputeStragglers(in);
  report.item = item;
  for (size_t s = 0; s < layout.steps.size(); ++s) {
    std::vector<std::string>& names = report.files.emplace_back();
    for (size_t f : layout.file[s]) names.push_back(f == kNoFile ? "" : merged.store.files[f]);
    if (report.steps[s].ranks > 1) FindTopFrame(merged, layout.file[s], report.steps[s]);
  }
  return report;
}

}  // namespace proton::viewer
