// Flexible metric rules; see metric.h.
#include "core/data/metric.h"

#include <type_traits>

namespace proton {
namespace {

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool IsFlopsName(std::string_view name) {
  return name == "flops" || name == "flops8" || name == "flops16" || name == "flops32" ||
         name == "flops64";
}

}  // namespace

MetricName ParseMetricName(std::string_view raw) {
  struct Suffix {
    std::string_view text;
    MetricKind kind;
  };
  static constexpr Suffix kSuffixes[] = {{"(exc)", MetricKind::kExclusive},
                                         {"(pty)", MetricKind::kProperty},
                                         {"(inc)", MetricKind::kInclusive}};
  for (const Suffix& s : kSuffixes) {
    if (raw.size() >= s.text.size() && raw.substr(raw.size() - s.text.size()) == s.text) {
      return {std::string(TrimRight(raw.substr(0, raw.size() - s.text.size()))), s.kind};
    }
  }
  return {std::string(raw), MetricKind::kInclusive};
}

MetricValue CoerceRoofline(std::string_view name, MetricValue value) {
  if (IsFlopsName(name)) {
    if (auto* i = std::get_if<int64_t>(&value)) return static_cast<double>(*i);
    if (auto* v = std::get_if<std::vector<int64_t>>(&value)) {
      return std::vector<double>(v->begin(), v->end());
    }
  } else if (name == "bytes") {
    if (auto* d = std::get_if<double>(&value)) return static_cast<int64_t>(*d);
    if (auto* v = std::get_if<std::vector<double>>(&value)) {
      std::vector<int64_t> out;
      out.reserve(v->size());
      for (double x : *v) out.push_back(static_cast<int64_t>(x));
      return out;
    }
  }
  return value;
}

std::string_view MetricTypeName(const MetricValue& value) {
  switch (value.index()) {
    case 0: return "int64_t";
    case 1: return "double";
    case 2: return "std::vector<int64_t>";
    default: return "std::vector<double>";
  }
}

Status AccumulateMetric(FlexMetric& metric, size_t value_id, const MetricValue& value) {
  if (metric.value.index() != value.index()) {
    return Status::Error("Metric value type mismatch for valueId " + std::to_string(value_id) +
                             " (" + metric.name +
                             "): current=" + std::string(MetricTypeName(metric.value)) +
                             ", new=" + std::string(MetricTypeName(value)),
                         ErrorKind::kRuntime);
  }
  if (metric.kind == MetricKind::kProperty) {
    metric.value = value;
    return Status();
  }
  return std::visit(
      [&](auto& current) -> Status {
        using T = std::decay_t<decltype(current)>;
        const T& add = std::get<T>(value);
        if constexpr (std::is_arithmetic_v<T>) {
          current += add;
        } else {
          if (current.size() != add.size()) {
            return Status::Error("Vector metric size mismatch for valueId " +
                                     std::to_string(value_id) + " (" + metric.name +
                                     "): current=" + std::to_string(current.size()) +
                                     ", new=" + std::to_string(add.size()),
                                 ErrorKind::kRuntime);
          }
          for (size_t i = 0; i < current.size(); ++i) current[i] += add[i];
        }
        return Status();
      },
      metric.value);
}

}  // namespace proton
