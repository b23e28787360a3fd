// See follow_conflict.h.
#include "viewer/cli/follow_conflict.h"

#include <utility>

namespace proton::viewer {

const char* FollowConflict(const ViewerOptions& a) {
  const std::pair<bool, const char*> conflicts[] = {
      {a.output.list, "-l/--list"},
      {!a.view.include.empty(), "-i/--include"},
      {!a.view.exclude.empty(), "-e/--exclude"},
      {a.view.has_threshold, "-t/--threshold"},
      {a.view.print_sorted, "--print-sorted"},
      {!a.input.diff_profile.empty(), "--diff-profile"},
      {a.input.merge != MergeMode::kNone, "--merge"},
      {!a.input.baselines.empty(), "--baseline"},
      {a.output.has_fail_above, "--fail-above"},
      {a.view.match != MatchMode::kExact, "--match"},
      {!a.output.export_path.empty(), "--export"},
      {!a.output.html_path.empty(), "--html"},
      {!a.output.speedscope_path.empty(), "--speedscope"},
      {a.output.stragglers, "--stragglers"},
      {a.output.has_sql, "--sql"},
      {a.output.trace_report, "--trace-report"},
  };
  for (const auto& [given, name] : conflicts) {
    if (given) return name;
  }
  return nullptr;
}

}  // namespace proton::viewer
