// Metric selection and derivation (viewer.md §4): resolves each -m item against the metric
// table, computes every derived column once, before filtering, in the reference's exact
// operation order, and gives each column its label (§4.6).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"
#include "viewer/common/tree_names.h"

namespace proton::viewer {

// One displayed column. Raw inclusive columns are read from the tree's `inc` sums, which
// filters recompute (§5.4); raw exclusive columns from the own values; derived columns from
// an ExtraColumn computed once by ResolveColumns and only carried afterwards.
struct ColumnRef {
  enum class Source { kRawInclusive, kRawExclusive, kExtra };
  Source source = Source::kExtra;
  int index = 0;      // into tree.columns() or tree.extra_columns()
  std::string item;   // the -m item as given (trimmed)
  std::string label;  // §4.6

  double Value(const ProfileTree& tree, NodeId n) const {
    switch (source) {
      case Source::kRawInclusive: return tree.columns()[index].inc[n];
      case Source::kRawExclusive: return tree.columns()[index].own[n];
      case Source::kExtra: return tree.extra_columns()[index].values[n];
    }
    return kMissing;
  }
};

// Resolves and computes the columns for `items` in order; the first failing item reports its
// error (§4, §9.2). `display_name` is F in messages.
Result<std::vector<ColumnRef>> ResolveColumns(ProfileTree& tree,
                                              const std::vector<std::string>& items,
                                              std::string_view display_name);

// §4.2 matching: index into tree.columns() of the first entry (inclusive list, then the
// exclusive list) whose key equals the lower-cased request or whose short name does; -2
// when the request names the pseudo-metric "name"; -1 when nothing matches.
int MatchRawMetric(const ProfileTree& tree, std::string_view request);

// The short name of a metric key: text before the first '(', trimmed and lower-cased (§3.4).
std::string ShortName(std::string_view key);

}  // namespace proton::viewer
