// See straggler_report.h.
#include "viewer/outputs/straggler_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "viewer/common/json_text.h"
#include "viewer/outputs/number_format.h"
#include "viewer/outputs/output_file.h"
#include "viewer/outputs/output_formats.h"
#include "viewer/outputs/table_writer.h"

namespace proton::viewer {
namespace {

std::string Fixed(double v) {
  std::string s;
  AppendFixed(s, v, 3);
  return s;
}

std::string LagText(double lag) {
  if (std::isnan(lag)) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f%%", 100.0 * lag);
  return buffer;
}

std::string PctText(double pct) {
  std::string s;
  AppendShortest(s, pct);
  return s + "%";
}

void AppendStep(std::string& out, const StragglerReport& r, const StepStragglers& step,
                int rank_width, int value_width) {
  char line[256];
  const bool any = step.ranks > 0;
  std::snprintf(line, sizeof line, "%5lld %6zu %12s  %-*s %*s %8s",
                static_cast<long long>(step.step), step.ranks, Fixed(step.median).c_str(),
                rank_width, any ? r.ranks[step.slowest].c_str() : "-", value_width,
                Fixed(step.slowest_value).c_str(), LagText(step.lag).c_str());
  out += line;
  if (!step.top_frame.empty())
    out += "  " + step.top_frame.back() + " (+" + Fixed(step.top_excess) + ")";
  out += '\n';
}

void AppendPersistent(std::string& out, const StragglerReport& r) {
  std::string lines;
  for (size_t k = 0; k < r.ranks.size(); ++k) {
    const RankStragglers& rank = r.rank_stats[k];
    if (!rank.persistent) continue;
    lines += "  " + r.ranks[k] + ": slow in " + std::to_string(rank.slow) + " of " +
             std::to_string(rank.steps) + " steps, the slowest in " + std::to_string(rank.slowest) +
             ", median lag " + LagText(rank.median_lag) + "\n";
  }
  out += lines.empty() ? "persistent stragglers: none\n"
                       : "persistent stragglers (slow in more than half of their steps):\n" + lines;
}

}  // namespace

std::string StragglerText(const StragglerReport& r) {
  std::string out = "stragglers: " + std::to_string(r.ranks.size()) + " ranks, " +
                    std::to_string(r.steps.size()) + " steps; " + r.item +
                    " of each rank's part at ROOT; slow: more than " + PctText(r.slow_pct) +
                    " above the step's median\n";
  int rank_width = 7;  // "slowest"
  for (const std::string& rank : r.ranks)
    rank_width = std::max(rank_width, static_cast<int>(rank.size()));
  const int value_width = std::max(12, static_cast<int>(r.item.size()));
  char line[256];
  std::snprintf(line, sizeof line, "%5s %6s %12s  %-*s %*s %8s  %s\n", "step", "ranks", "median",
                rank_width, "slowest", value_width, r.item.c_str(), "lag", "most of the lag in");
  out += line;
  for (const StepStragglers& step : r.steps) AppendStep(out, r, step, rank_width, value_width);
  AppendPersistent(out, r);
  return out;
}

Status ExportStragglers(const std::string& path, const StragglerReport& r) {
  PROTON_ASSIGN_OR_RETURN(OutputFile file, OutputFile::Create(path));
  RowWriter w(file.get(), ExportFormatOf(path) == OutputFormat::kCsv);
  w.Header({"step", "rank", "file", r.item, "median", "lag", "slowest", "slow", "persistent",
            "top_frame", "top_excess"});
  std::string top;
  for (size_t s = 0; s < r.steps.size(); ++s) {
    const StepStragglers& step = r.steps[s];
    top.clear();
    std::vector<std::string_view> path_names(step.top_frame.begin(), step.top_frame.end());
    if (!path_names.empty()) AppendJsonPath(top, path_names);
    for (size_t k = 0; k < r.ranks.size(); ++k) {
      if (std::isnan(r.values[s][k])) continue;
      const double lag = r.Lag(s, k);
      w.Begin();
      w.Number("step", static_cast<double>(step.step));
      w.Text("rank", r.ranks[k]);
      w.Text("file", r.files[s][k]);
      w.Number(r.item, r.values[s][k]);
      w.Number("median", step.median);
      w.Number("lag", lag);
      w.Bool("slowest", step.ranks > 1 && step.slowest == k);
      w.Bool("slow", lag * 100.0 > r.slow_pct);
      w.Bool("persistent", r.rank_stats[k].persistent);
      if (top.empty()) {
        w.Null("top_frame");
      } else {
        w.Json("top_frame", top);  // CSV: the JSON list as text, as --export's `path`
      }
      w.Number("top_excess", step.top_excess);
      w.End();
    }
  }
  w.Drain();
  return file.Commit();
}

}  // namespace proton::viewer
