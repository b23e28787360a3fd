// Tests of flexible metric rules (profiler.md §3.2, §1.8).
#include "core/data/metric.h"

#include <gtest/gtest.h>

namespace proton {
namespace {

TEST(Metric, SuffixRules) {
  EXPECT_EQ(ParseMetricName("cpu_wait (ns)(exc)").name, "cpu_wait (ns)");
  EXPECT_EQ(ParseMetricName("cpu_wait (ns)(exc)").kind, MetricKind::kExclusive);
  EXPECT_EQ(ParseMetricName("a (pty)").name, "a");
  EXPECT_EQ(ParseMetricName("a (pty)").kind, MetricKind::kProperty);
  EXPECT_EQ(ParseMetricName("x(inc)").name, "x");
  EXPECT_EQ(ParseMetricName("x(inc)").kind, MetricKind::kInclusive);
  EXPECT_EQ(ParseMetricName("time (ns)").name, "time (ns)");
  EXPECT_EQ(ParseMetricName("time (ns)").kind, MetricKind::kInclusive);
}

TEST(Metric, RooflineCoercion) {
  EXPECT_EQ(std::get<double>(CoerceRoofline("flops16", int64_t{2})), 2.0);
  EXPECT_EQ(std::get<double>(CoerceRoofline("flops", int64_t{2})), 2.0);
  EXPECT_EQ(std::get<int64_t>(CoerceRoofline("bytes", 3.0)), 3);
  EXPECT_EQ(std::get<int64_t>(CoerceRoofline("other", int64_t{3})), 3);
  EXPECT_EQ(std::get<double>(CoerceRoofline("flopsy", 1.5)), 1.5);
}

TEST(Metric, AggregationAndExactErrors) {
  FlexMetric m{"a", MetricKind::kInclusive, 1.0};
  ASSERT_TRUE(AccumulateMetric(m, 0, 1.0).ok());
  EXPECT_EQ(std::get<double>(m.value), 2.0);
  Status st = AccumulateMetric(m, 0, int64_t{1});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(),
            "Metric value type mismatch for valueId 0 (a): current=double, new=int64_t");
  EXPECT_EQ(st.kind(), ErrorKind::kRuntime);

  FlexMetric v{"v", MetricKind::kInclusive, std::vector<int64_t>{1, 2}};
  ASSERT_TRUE(AccumulateMetric(v, 3, std::vector<int64_t>{10, 20}).ok());
  EXPECT_EQ(std::get<std::vector<int64_t>>(v.value), (std::vector<int64_t>{11, 22}));
  st = AccumulateMetric(v, 3, std::vector<int64_t>{1});
  EXPECT_EQ(st.message(), "Vector metric size mismatch for valueId 3 (v): current=2, new=1");

  FlexMetric p{"p", MetricKind::kProperty, int64_t{1}};
  ASSERT_TRUE(AccumulateMetric(p, 0, int64_t{5}).ok());
  EXPECT_EQ(std::get<int64_t>(p.value), 5);
}

}  // namespace
}  // namespace proton
