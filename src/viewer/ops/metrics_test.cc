// Tests for metrics: resolution, labels, errors and the §4.7 reference values of cuda.json.
#include "viewer/ops/metrics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace proton::viewer {
namespace {

// cuda.json (viewer.md §4.7): old layout, CUDA devices 89/90/100.
ProfileTree CudaTree() {
  ProfileTree t;
  NodeId root = t.AddNode(kNoNode, "ROOT");
  t.SetInt(root, "count", 0);
  t.SetInt(root, "time (ns)", 0);
  t.SetInt(root, "flops8", 0);
  t.SetInt(root, "bytes", 0);
  struct Kernel {
    const char* name;
    int64_t count;
    const char* device;
    double flops8, bytes;
  };
  for (const Kernel& k : {Kernel{"foo0", 10, "1", 1e11, 1e8}, Kernel{"foo1", 1, "0", 1e10, 1e7},
                          Kernel{"foo2", 1, "2", 1e11, 1e7}}) {
    NodeId n = t.AddNode(root, k.name);
    t.SetInt(n, "count", k.count);
    t.SetString(n, "device_id", k.device);
    t.SetString(n, "device_type", "CUDA");
    t.SetInt(n, "time (ns)", 204800);
    t.SetDouble(n, "flops8", k.flops8);
    t.SetDouble(n, "bytes", k.bytes);
  }
  auto add_device = [&](const char* index, const char* arch, double bus, double clock,
                        double mem_clock, double sms) {
    DeviceTable::Entry e;
    e.device_type = "CUDA";
    e.device_index = index;
    e.info.arch = arch;
    e.info.has_arch = true;
    e.info.bus_width = bus;
    e.info.clock_rate = clock;
    e.info.memory_clock_rate = mem_clock;
    e.info.num_sms = sms;
    t.mutable_devices().entries.push_back(e);
  };
  add_device("0", "89", 384, 2625000, 10501000, 128);
  add_device("1", "90", 6144, 1980000, 2619000, 132);
  add_device("2", "100", 6144, 1700000, 2619000, 148);
  EXPECT_TRUE(PrepareProfile(t, "cuda.json").ok());
  return t;
}

std::vector<double> Values(const ProfileTree& t, const ColumnRef& c) {
  std::vector<double> v;
  for (NodeId n : SortedPreOrder(t)) v.push_back(c.Value(t, n));
  return v;
}

ColumnRef One(ProfileTree& t, const std::string& item) {
  Result<std::vector<ColumnRef>> r = ResolveColumns(t, {item}, "cuda.json");
  EXPECT_TRUE(r.ok()) << item << ": " << r.status().message();
  return r.ok() ? r->at(0) : ColumnRef();
}

std::string Err(ProfileTree& t, const std::string& item) {
  Result<std::vector<ColumnRef>> r = ResolveColumns(t, {item}, "cuda.json");
  return r.ok() ? "(ok)" : r.status().message();
}

// The §4.7 table is written in short decimals; the exact values are within a few ulps.
void ExpectNear(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_DOUBLE_EQ(actual[i], expected[i]) << i;
}

TEST(Metrics, ReferenceValues) {
  ProfileTree t = CudaTree();
  ExpectNear(Values(t, One(t, "time/s")), {0.0006144, 0.0002048, 0.0002048, 0.0002048});
  EXPECT_EQ(Values(t, One(t, "time/s"))[0], (614400 * 1e-9) / 1);
  EXPECT_EQ(Values(t, One(t, "time/ns")), (std::vector<double>{614400, 204800, 204800, 204800}));
  EXPECT_EQ(Values(t, One(t, "avg_time/ns")), (std::vector<double>{51200, 20480, 204800, 204800}));
  ExpectNear(Values(t, One(t, "byte/s")), {1.953125e11, 4.8828125e11, 4.8828125e10, 4.8828125e10});
  EXPECT_EQ(Values(t, One(t, "byte/s"))[1], (1e8 / (204800 * 1e-9)) / 1);
  const std::vector<double> util = Values(t, One(t, "util"));
  EXPECT_TRUE(std::isnan(util[0]));
  EXPECT_NEAR(util[1], 0.247044, 1e-6);
  EXPECT_NEAR(util[2], 0.147830, 1e-6);
  EXPECT_NEAR(util[3], 0.118451, 1e-6);
  // time/ms is (ns * 1e-9) / 1e-3, not ns / 1e6.
  EXPECT_EQ(Values(t, One(t, "time/ms"))[0], (614400 * 1e-9) / 1e-3);
  const std::vector<double> pct = Values(t, One(t, "time/%"));
  EXPECT_EQ(pct[0], 100.0);
  EXPECT_EQ(pct[1], (204800.0 / 614400.0) * 100.0);
}

TEST(Metrics, Labels) {
  ProfileTree t = CudaTree();
  EXPECT_EQ(One(t, "time").label, "time (ns) (inc)");
  EXPECT_EQ(One(t, "TIME").label, "time (ns) (inc)");
  EXPECT_EQ(One(t, "time (ns)").label, "time (ns) (inc)");
  EXPECT_EQ(One(t, "Time (NS)").label, "time (ns) (inc)");
  EXPECT_EQ(One(t, "time/us").label, "time/us (inc)");
  EXPECT_EQ(One(t, "gbyte/s").label, "gbyte/s (inc)");
  EXPECT_EQ(One(t, "util").label, "util");
  EXPECT_EQ(One(t, "TIME/%").label, "TIME/% (inc)");
  EXPECT_EQ(One(t, "time (ns)/%").label, "time (ns)/% (inc)");
  EXPECT_EQ(One(t, "count").source, ColumnRef::Source::kRawInclusive);
}

TEST(Metrics, Errors) {
  ProfileTree t = CudaTree();
  EXPECT_EQ(
      Err(t, "foo"),
      "Metric foo is not found in 'cuda.json'. Use the --list flag to list available metrics");
  EXPECT_EQ(
      Err(t, "FOO"),
      "Metric foo is not found in 'cuda.json'. Use the --list flag to list available metrics");
  EXPECT_EQ(Err(t, "tflop16/s"),
            "Metric flops16 is not found in 'cuda.json'. Use the --list flag to list available "
            "metrics");
  EXPECT_EQ(Err(t, "tflop/s"),
            "Metric flops is not found in 'cuda.json'. Use the --list flag to list available "
            "metrics");
  EXPECT_EQ(Err(t, "Time/s"), "Unsupported unit s in metric Time/s");
  EXPECT_EQ(Err(t, "time/xx"), "Unsupported unit xx in metric time/xx");
  EXPECT_EQ(Err(t, "name"), "Metric name is not numeric");
  EXPECT_EQ(Err(t, "device_id"), "Metric device_id is not numeric");
  EXPECT_EQ(Err(t, "device_type/%"), "Metric device_type/% is not numeric");
  EXPECT_EQ(Err(t, "cpu_time/us"),
            "Metric cpu_time is not found in 'cuda.json'. Use the --list flag to list available "
            "metrics");
  // The first failing item reports its error.
  Result<std::vector<ColumnRef>> r = ResolveColumns(t, {"time/us", "foo", "bar"}, "cuda.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("Metric foo"), std::string::npos);
}

TEST(Metrics, ExclusivePercentAndTimeUnit) {
  ProfileTree t;
  NodeId root = t.AddNode(kNoNode, "ROOT");
  t.SetInt(root, "count", 0);
  t.SetInt(root, "time", 0);  // no unit
  NodeId a = t.AddNode(root, "a");
  t.SetInt(a, "count", 1);
  t.SetInt(a, "time", 5);
  t.SetDouble(a, "bytes", 30);
  NodeId b = t.AddNode(root, "b");
  t.SetInt(b, "count", 1);
  t.SetDouble(b, "bytes", 10);
  ASSERT_TRUE(PrepareProfile(t, "x").ok());
  ColumnRef pct = One(t, "bytes/%");
  EXPECT_EQ(pct.label, "bytes/%");
  EXPECT_EQ(Values(t, pct)[1], (30.0 / 40.0) * 100.0);
  EXPECT_TRUE(std::isnan(Values(t, pct)[0]));
  EXPECT_EQ(Err(t, "time/ms"), "Metric time/ms needs a time metric with a unit (s, ms, us or ns)");
  EXPECT_EQ(Err(t, "util"),
            "Metric util needs the device_id metric, which is not found in 'cuda.json'");
}

TEST(Metrics, ShortNames) {
  EXPECT_EQ(ShortName("time (ns)"), "time");
  EXPECT_EQ(ShortName("cpu_time (ns)"), "cpu_time");
  EXPECT_EQ(ShortName(" Count "), "count");
  EXPECT_EQ(ShortName("a (b) (c)"), "a");
}

}  // namespace
}  // namespace proton::viewer
