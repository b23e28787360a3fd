// See straggler_data.h.
#include "viewer/outputs/straggler_data.h"

#include <cmath>
#include <string_view>

#include "viewer/common/json_text.h"

namespace proton::viewer {
namespace {

void Number(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "null";
  } else if (std::isinf(v)) {
    out += v > 0 ? "1e999" : "-1e999";
  } else {
    AppendShortest(out, v);
  }
}

// "key":[f(0),f(1),...] for i in [0, n), then a comma.
template <class Fn>
void List(std::string& out, std::string_view key, size_t n, Fn&& item) {
  out += '"';
  out += key;
  out += "\":[";
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out += ',';
    item(i);
  }
  out += "],";
}

void AppendSteps(std::string& out, const StragglerReport& r) {
  const size_t n = r.steps.size();
  List(out, "steps", n, [&](size_t s) { Number(out, static_cast<double>(r.steps[s].step)); });
  List(out, "values", n, [&](size_t s) {
    out += '[';
    for (size_t k = 0; k < r.values[s].size(); ++k) {
      if (k > 0) out += ',';
      Number(out, r.values[s][k]);
    }
    out += ']';
  });
  List(out, "median", n, [&](size_t s) { Number(out, r.steps[s].median); });
  List(out, "slowest", n, [&](size_t s) {
    Number(out, r.steps[s].ranks > 0 ? static_cast<double>(r.steps[s].slowest) : -1.0);
  });
  List(out, "lag", n, [&](size_t s) { Number(out, r.steps[s].lag); });
  List(out, "topFrame", n, [&](size_t s) {
    const std::vector<std::string>& path = r.steps[s].top_frame;
    if (path.empty()) {
      out += "null";
      return;
    }
    AppendJsonPath(out, std::vector<std::string_view>(path.begin(), path.end()));
  });
  List(out, "topExcess", n, [&](size_t s) { Number(out, r.steps[s].top_excess); });
}

void AppendRanks(std::string& out, const StragglerReport& r) {
  const size_t n = r.ranks.size();
  List(out, "ranks", n, [&](size_t k) { AppendJsonString(out, r.ranks[k]); });
  List(out, "rankSteps", n,
       [&](size_t k) { Number(out, static_cast<double>(r.rank_stats[k].steps)); });
  List(out, "rankSlow", n,
       [&](size_t k) { Number(out, static_cast<double>(r.rank_stats[k].slow)); });
  List(out, "rankSlowest", n,
       [&](size_t k) { Number(out, static_cast<double>(r.rank_stats[k].slowest)); });
  List(out, "rankMedianLag", n, [&](size_t k) { Number(out, r.rank_stats[k].median_lag); });
  List(out, "persistent", n,
       [&](size_t k) { out += r.rank_stats[k].persistent ? "true" : "false"; });
}

}  // namespace

void AppendStragglerData(std::string& out, const StragglerReport& r) {
  out += "\"stragglers\":{\"item\":";
  AppendJsonString(out, r.item);
  out += ",\"slowPct\":";
  Number(out, r.slow_pct);
  out += ',';
  AppendRanks(out, r);
  AppendSteps(out, r);
  out.back() = '}';  // the last list's comma
}

}  // namespace proton::viewer
