// See live_view.h. Everything here is O(union) per block: kernels are the union's leaves
// summed by name, scopes its inner frames by path.
#include "viewer/live/live_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <unordered_map>

#include "viewer/common/quoted.h"
#include "viewer/names/demangle.h"
#include "viewer/outputs/number_format.h"

namespace proton::viewer {
namespace {

struct Row {
  std::string name;  // a scope's is filled once it is chosen (PathOf)
  double phase = 0;  // in the item's units
  double run = 0;
  NodeId node = kNoNode;  // a scope's union node
};

double At(const std::vector<double>& v, NodeId u) { return u < v.size() ? v[u] : 0.0; }

std::string Fixed(double v) {
  std::string s;
  AppendFixed(s, v, 3);
  return s;
}

std::string Percent(double part, double whole) {
  if (!(whole > 0)) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100.0 * part / whole);
  return buffer;
}

std::string SignedPercent(double now, double before) {
  if (!(before > 0)) return "";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f%%", 100.0 * (now - before) / before);
  return buffer;
}

// The union node's path below ROOT: "step/forward".
std::string PathOf(const MergeUnion& frames, NodeId u, DemangleMode demangle) {
  std::vector<std::string_view> names;
  for (NodeId n = u; n != 0 && n != kNoNode; n = frames.parent(n)) names.push_back(frames.name(n));
  std::string path;
  for (size_t i = names.size(); i-- > 0;) {
    path += DisplayName(names[i], demangle);
    if (i > 0) path += '/';
  }
  return path;
}

bool RowBefore(double Row::*value, const Row& a, const Row& b) {
  if (a.*value != b.*value) return a.*value > b.*value;
  if (a.name != b.name) return a.name < b.name;
  return a.node < b.node;
}

// The `top` rows by the phase's value and the `top` rows by the run's, in the phase's order.
std::vector<Row> TopRows(const std::vector<Row>& rows, size_t top) {
  std::vector<uint8_t> chosen(rows.size(), 0);
  for (double Row::*value : {&Row::phase, &Row::run}) {
    std::vector<size_t> order(rows.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    const size_t n = std::min(top, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<ptrdiff_t>(n), order.end(),
                      [&](size_t a, size_t b) { return RowBefore(value, rows[a], rows[b]); });
    for (size_t i = 0; i < n; ++i) chosen[order[i]] = 1;
  }
  std::vector<Row> out;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (chosen[i]) out.push_back(rows[i]);
  }
  std::sort(out.begin(), out.end(), [](const Row& a, const Row& b) {
    if (a.phase != b.phase) return a.phase > b.phase;
    return RowBefore(&Row::run, a, b);
  });
  return out;
}

// Kernels with equal names once demangled are one row (two instantiations of a template,
// shown short). Only the distinct kernel names are demangled, not every frame.
std::vector<Row> MergeByDisplayName(std::vector<Row> kernels, DemangleMode demangle) {
  if (demangle == DemangleMode::kOff) return kernels;
  std::vector<Row> merged;
  std::unordered_map<std::string, size_t> index;
  for (Row& row : kernels) {
    auto [it, added] = index.emplace(DisplayName(row.name, demangle), merged.size());
    if (added) {
      merged.push_back({it->first, 0, 0});
    }
    merged[it->second].phase += row.phase;
    merged[it->second].run += row.run;
  }
  return merged;
}

// Kernels (frames without children) summed by name; scopes (other frames below ROOT) by union
// node, their paths built only for the rows shown.
void CollectRows(const LiveTotals& totals, const std::vector<double>& phase, double per_ns,
                 DemangleMode demangle, std::vector<Row>& kernels, std::vector<Row>& scopes) {
  const MergeUnion& frames = totals.frames();
  std::unordered_map<std::string_view, size_t> kernel_row;
  for (NodeId u = 1; u < frames.size(); ++u) {
    const double p = At(phase, u) * per_ns;
    const double r = At(totals.run_frames(), u) * per_ns;
    if (p == 0 && r == 0) continue;
    if (totals.HasChildren(u)) {
      scopes.push_back({"", p, r, u});
      continue;
    }
    auto [it, added] = kernel_row.emplace(frames.name(u), kernels.size());
    if (added) kernels.push_back({std::string(frames.name(u)), 0, 0});
    kernels[it->second].phase += p;
    kernels[it->second].run += r;
  }
  kernels = MergeByDisplayName(std::move(kernels), demangle);
}

// Cuts `name` to `width` bytes (at a UTF-8 boundary), ending in "…", when width > 0.
std::string Cut(const std::string& name, size_t width) {
  if (width == 0 || name.size() <= width) return name;
  size_t end = width > 3 ? width - 3 : 0;
  while (end > 0 && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80) --end;
  return name.substr(0, end) + "\u2026";
}

// In a pipe, names longer than this are cut: a mangled C++ kernel name runs to hundreds of
// bytes, and a log line per row should still be readable (--demangle=short shortens them).
constexpr size_t kPipeNameWidth = 100;

// The name column's width for both lists: their longest name (at least 24), cut to the
// terminal's width less the numbers' on a terminal, else to kPipeNameWidth.
size_t NameWidth(const std::vector<Row>& kernels, const std::vector<Row>& scopes,
                 const LiveViewStyle& style) {
  size_t width = 24;
  for (const std::vector<Row>* rows : {&kernels, &scopes}) {
    for (const Row& row : *rows) width = std::max(width, row.name.size());
  }
  const size_t cap = style.width > 0 ? std::max<size_t>(style.width, 64) - 40 : kPipeNameWidth;
  return std::min(width, cap);
}

void AppendRows(std::string& out, std::string_view title, const std::vector<Row>& rows,
                int64_t phase, double phase_total, double run_total, size_t name_width) {
  // The title padded to the name column by hand: a terminal's column may be wider than any
  // fixed buffer.
  out += title;
  out.append(name_width + 2 > title.size() ? name_width + 2 - title.size() : 1, ' ');
  char line[160];
  std::snprintf(line, sizeof line, " %12s %7s %12s %7s\n",
                ("phase " + std::to_string(phase)).c_str(), "share", "run so far", "share");
  out += line;
  for (const Row& row : rows) {
    const std::string name = Cut(row.name, name_width);
    out += "  " + name;
    out.append(name_width > name.size() ? name_width - name.size() : 1, ' ');
    std::snprintf(line, sizeof line, " %12s %7s %12s %7s\n", Fixed(row.phase).c_str(),
                  Percent(row.phase, phase_total).c_str(), Fixed(row.run).c_str(),
                  Percent(row.run, run_total).c_str());
    out += line;
  }
}

double SumOf(const std::vector<double>& totals) {
  double sum = 0;
  for (double v : totals) sum += std::isnan(v) ? 0.0 : v;
  return sum;
}

// "time/ms  12.345  (phase 6: 12.001, +2.9%)", then the history of the shown phases.
void AppendTotals(std::string& out, const LiveTotals& totals, int64_t phase,
                  const LiveViewStyle& style) {
  std::vector<double> history;
  std::vector<int64_t> numbers;
  for (const auto& [p, data] : totals.phases()) {
    if (p > phase || !data.shown) continue;
    history.push_back(SumOf(data.totals) * style.per_ns);
    numbers.push_back(p);
  }
  if (history.size() > style.history) {
    history.erase(history.begin(), history.end() - static_cast<ptrdiff_t>(style.history));
    numbers.erase(numbers.begin(), numbers.end() - static_cast<ptrdiff_t>(style.history));
  }
  const double now = history.back();
  out += style.item + "  " + Fixed(now);
  if (history.size() > 1) {
    const double before = history[history.size() - 2];
    out += "  (phase " + std::to_string(numbers[numbers.size() - 2]) + ": " + Fixed(before);
    const std::string change = SignedPercent(now, before);
    out += change.empty() ? ")" : ", " + change + ")";
  }
  out += "\nhistory  " + Sparkline(history);
  if (numbers.size() == 1) {
    out += "  phase " + std::to_string(numbers.front()) + "\n";
    return;
  }
  out += "  phases " + std::to_string(numbers.front());
  out += '-';
  out += std::to_string(numbers.back());
  const auto [low, high] = std::minmax_element(history.begin(), history.end());
  out += ", " + Fixed(*low) + " to " + Fixed(*high) + "\n";
}

// The median of `values` (not empty): of an even count, the mean of the two middle ones.
double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The slowest stream of the phase against the median of the streams that wrote it; on a tie
// the first stream is both the slowest and the fastest.
void AppendRanks(std::string& out, const std::vector<double>& phase_totals,
                 const std::vector<std::string>& labels, const LiveViewStyle& style) {
  std::vector<double> present;
  size_t slowest = 0;
  size_t fastest = 0;
  for (size_t s = 0; s < phase_totals.size(); ++s) {
    const double v = phase_totals[s];
    if (std::isnan(v)) continue;
    if (present.empty() || v > phase_totals[slowest]) slowest = s;
    if (present.empty() || v < phase_totals[fastest]) fastest = s;
    present.push_back(v * style.per_ns);
  }
  if (labels.size() < 2 || present.empty()) return;
  const double median = Median(present);
  const double slow = phase_totals[slowest] * style.per_ns;
  out += "ranks    " + std::to_string(present.size()) + " of " + std::to_string(labels.size()) +
         "; slowest " + labels[slowest] + " " + Fixed(slow);
  const std::string lag = SignedPercent(slow, median);
  if (!lag.empty()) out += " (" + lag + " over the median " + Fixed(median) + ")";
  out += "; fastest " + labels[fastest] + " " + Fixed(phase_totals[fastest] * style.per_ns) + "\n";
}

}  // namespace

std::string RenderPhase(const LiveTotals& totals, int64_t phase,
                        const std::vector<std::string>& labels, const LiveViewStyle& style) {
  const LivePhase& data = totals.phases().at(phase);
  std::string out = "== phase " + std::to_string(phase) + " of " + Quoted(style.run);
  if (labels.size() > 1) out += " (" + std::to_string(labels.size()) + " ranks)";
  out += " ==\n";
  AppendTotals(out, totals, phase, style);
  AppendRanks(out, data.totals, labels, style);
  std::vector<Row> kernels;
  std::vector<Row> scopes;
  CollectRows(totals, data.frames, style.per_ns, style.demangle, kernels, scopes);
  kernels = TopRows(kernels, style.top);
  scopes = TopRows(scopes, style.top);
  for (Row& row : scopes) row.name = PathOf(totals.frames(), row.node, style.demangle);
  const double phase_total = At(data.frames, 0) * style.per_ns;
  const double run_total = At(totals.run_frames(), 0) * style.per_ns;
  const size_t name_width = NameWidth(kernels, scopes, style);
  if (!kernels.empty()) {
    AppendRows(out, "kernels", kernels, phase, phase_total, run_total, name_width);
  }
  if (!scopes.empty()) {
    AppendRows(out, "scopes", scopes, phase, phase_total, run_total, name_width);
  }
  return out;
}

std::string Sparkline(const std::vector<double>& values) {
  static constexpr std::string_view kBars[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                               "\u2585", "\u2586", "\u2587", "\u2588"};
  double high = 0;
  for (double v : values) {
    if (v > high) high = v;  // NaN compares false
  }
  std::string out;
  for (double v : values) {
    if (std::isnan(v)) {
      out += ' ';
      continue;
    }
    // Eighths of the largest, rounded up: the largest is a full bar, 0 (or less) the lowest.
    const double eighths = high > 0 ? std::ceil(v / high * 8) : 0;
    out += kBars[std::clamp(static_cast<int>(eighths) - 1, 0, 7)];
  }
  return out;
}

}  // namespace proton::viewer
