// See filters.h.
#include "viewer/ops/filters.h"

#include <string>
#include <vector>

#include "viewer/common/quoted.h"
#include "viewer/names/name_pattern.h"

namespace proton::viewer {
namespace {

Result<std::vector<uint8_t>> MatchNames(const ProfileTree& tree, std::string_view pattern,
                                        std::string_view option) {
  PROTON_ASSIGN_OR_RETURN(NamePattern compiled, NamePattern::Compile(pattern, option));
  std::vector<uint8_t> matched(tree.size());
  for (NodeId n = 0; n < tree.size(); ++n) {
    PROTON_ASSIGN_OR_RETURN(const bool match, compiled.Matches(tree.name(n)));
    matched[n] = match ? 1 : 0;
  }
  return matched;
}

}  // namespace

Status ApplyFilters(ProfileTree& tree, const ViewOptions& view, const ColumnRef& first,
                    std::string_view display_name) {
  const std::string file = Quoted(display_name);
  if (!view.include.empty()) {
    PROTON_ASSIGN_OR_RETURN(std::vector<uint8_t> matched,
                            MatchNames(tree, view.include, "--include"));
    if (!ApplyFilter(tree, FilterKind::kInclude, matched)) {
      return Status::Error("--include '" + view.include + "' matches no frame in " + file);
    }
  }
  if (!view.exclude.empty()) {
    PROTON_ASSIGN_OR_RETURN(std::vector<uint8_t> matched,
                            MatchNames(tree, view.exclude, "--exclude"));
    if (!ApplyFilter(tree, FilterKind::kExclude, matched)) {
      return Status::Error("--exclude '" + view.exclude + "' removes every frame in " + file);
    }
  }
  if (view.has_threshold) {
    std::vector<uint8_t> matched(tree.size());
    for (NodeId n = 0; n < tree.size(); ++n) {
      matched[n] = first.Value(tree, n) >= view.threshold ? 1 : 0;  // NaN never passes
    }
    if (!ApplyFilter(tree, FilterKind::kThreshold, matched)) {
      return Status::Error("--threshold " + view.threshold_text + " removes every frame in " +
                           file);
    }
  }
  return Status();
}

}  // namespace proton::viewer
