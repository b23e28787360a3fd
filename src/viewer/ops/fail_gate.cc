// See fail_gate.h. Frames present in only one profile are not judged themselves: their cost
// shows in their common ancestors (ROOT at the least), which are.
#include "viewer/ops/fail_gate.h"

#include <cmath>

#include "viewer/common/json_text.h"

namespace proton::viewer {

bool GrewPast(double now, double base, double pct, double min) {
  if (std::isnan(now) || std::isnan(base)) return false;
  const double growth = now - base;
  // |base|: a baseline below zero (a diffed or derived metric) still scales the percentage.
  return growth > min && growth > pct / 100.0 * std::fabs(base);
}

bool ReportGateFailures(const GateInput& in, const std::function<void(std::string_view)>& write) {
  constexpr size_t kChunk = size_t{1} << 16;
  std::string out;
  bool failed = false;
  ForEachSortedPreOrder(*in.tree, [&](NodeId n) {
    const double now = in.now[n];
    const double base = in.base[n];
    if (!GrewPast(now, base, in.pct, in.min)) return true;
    failed = true;
    out += "proton-viewer: --fail-above ";
    out += in.spec;
    out += ": ";
    AppendJsonPath(out, FramePath(*in.tree, n));
    out += ' ';
    out += in.label;
    out += " grew from ";
    AppendShortest(out, base);
    out += " to ";
    AppendShortest(out, now);
    out += " (+";
    AppendShortest(out, now - base);
    out += base != 0 ? ", +" : ")\n";
    if (base != 0) {
      AppendShortest(out, std::round((now - base) / std::fabs(base) * 1000.0) / 10.0);
      out += "%)\n";
    }
    if (out.size() >= kChunk) {
      write(out);
      out.clear();
    }
    return true;
  });
  if (!out.empty()) write(out);
  return failed;
}

}  // namespace proton::viewer
