// See noise_gate.h.
#include "viewer/ops/noise_gate.h"

#include <algorithm>
#include <cmath>

#include "viewer/common/json_text.h"

namespace proton::viewer {
namespace {

// The q-quantile of sorted `v` (not empty), interpolating at position (n - 1) * q.
double Quantile(const std::vector<double>& v, double q) {
  const double position = static_cast<double>(v.size() - 1) * q;
  const auto below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, v.size() - 1);
  return v[below] + (v[above] - v[below]) * (position - static_cast<double>(below));
}

void AppendLine(std::string& out, const NoiseGateInput& in, NodeId n) {
  const Spread& now = in.now[n];
  const Spread& base = in.base[n];
  out += "proton-viewer: --fail-above ";
  out += in.spec;
  out += ": ";
  AppendJsonPath(out, FramePath(*in.tree, n));
  out += ' ';
  out += in.label;
  out += " median grew from ";
  AppendShortest(out, base.median);
  out += " to ";
  AppendShortest(out, now.median);
  out += " (+";
  AppendShortest(out, now.median - base.median);
  if (base.median != 0) {
    out += ", +";
    AppendShortest(out,
                   std::round((now.median - base.median) / std::fabs(base.median) * 1000.0) / 10.0);
    out += '%';
  }
  out += "; IQR ";
  AppendShortest(out, base.iqr());
  out += " over " + std::to_string(base.n) + " baseline files, ";
  AppendShortest(out, now.iqr());
  out += " over " + std::to_string(now.n) + (now.n == 1 ? " file)\n" : " files)\n");
}

}  // namespace

Spread SpreadOf(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
               values.end());
  Spread s;
  s.n = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.median = Quantile(values, 0.5);
  s.q1 = Quantile(values, 0.25);
  s.q3 = Quantile(values, 0.75);
  return s;
}

bool GrewBeyondNoise(const Spread& now, const Spread& base, double pct, double min) {
  if (now.n == 0 || base.n == 0) return false;
  const double growth = now.median - base.median;
  const double noise = std::max(base.iqr(), now.iqr());
  return growth > min && growth > pct / 100.0 * std::fabs(base.median) && growth > noise;
}

bool ReportNoiseGateFailures(const NoiseGateInput& in,
                             const std::function<void(std::string_view)>& write) {
  constexpr size_t kChunk = size_t{1} << 16;
  std::string out;
  bool failed = false;
  ForEachSortedPreOrder(*in.tree, [&](NodeId n) {
    if (!GrewBeyondNoise(in.now[n], in.base[n], in.pct, in.min)) return true;
    failed = true;
    AppendLine(out, in, n);
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
