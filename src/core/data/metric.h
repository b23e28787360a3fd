// Flexible metrics (profiler.md §3.2): suffix rules, roofline coercion and aggregation with the
// reference's exact error messages. Kernel metrics live in TreeData itself.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "proton/proton.h"
#include "util/status.h"

namespace proton {

enum class MetricKind { kInclusive, kExclusive, kProperty };

struct MetricName {
  std::string name;  // suffix removed, trailing spaces trimmed
  MetricKind kind;
};

// "cpu_wait (ns)(exc)" -> {"cpu_wait (ns)", kExclusive}; "a (pty)" -> {"a", kProperty};
// "x(inc)" -> {"x", kInclusive}; anything else is inclusive and kept as is.
MetricName ParseMetricName(std::string_view raw);

// flops, flops8/16/32/64 become double; bytes becomes int64 (profiler.md §1.8).
MetricValue CoerceRoofline(std::string_view name, MetricValue value);

// One flexible metric stored on a node.
struct FlexMetric {
  std::string name;
  MetricKind kind;
  MetricValue value;
};

// "int64_t", "double", "std::vector<int64_t>", "std::vector<double>".
std::string_view MetricTypeName(const MetricValue& value);

// Adds `value` into `metric` (`value_id` is the metric's index on its node, for messages).
// Inclusive and exclusive values add (vectors elementwise); properties are replaced.
Status AccumulateMetric(FlexMetric& metric, size_t value_id, const MetricValue& value);

}  // namespace proton
