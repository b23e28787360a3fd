// Tests of TreeData: nodes by parent and name, kernel and flexible metrics, Clear.
#include "core/data/tree_data.h"

#include <gtest/gtest.h>

namespace proton {
namespace {

TEST(TreeData, NodesByParentAndName) {
  TreeData data;
  NodeRef a = data.Child(data.Root(), "a");
  NodeRef b = data.Child(a, "b");
  EXPECT_EQ(data.Child(data.Root(), "a").node, a.node);
  EXPECT_EQ(data.Descend(data.Root(), {"a", "b"}).node, b.node);
  EXPECT_NE(data.Child(b, "a").node, a.node);
  EXPECT_EQ(data.PathNames(b), (std::vector<std::string>{"a", "b"}));
}

TEST(TreeData, KernelMetricsAccumulateAndNameChild) {
  TreeData data;
  NodeRef s = data.Child(data.Root(), "s");
  KernelRecord r;
  r.start_ns = 10;
  r.end_ns = 30;
  r.device_id = 1;
  r.name = "k";
  EXPECT_TRUE(data.AddKernel(s, r, true));
  EXPECT_TRUE(data.AddKernel(s, r, true));
  data.WithLock([&] {
    uint32_t k = data.tree().Find(s.node, "k");
    ASSERT_NE(k, kNoNode);
    EXPECT_EQ(data.Kernel(k)->count, 2u);
    EXPECT_EQ(data.Kernel(k)->time_ns, 40u);
    EXPECT_EQ(data.Kernel(k)->device_id, 1u);
    EXPECT_EQ(data.Kernel(s.node), nullptr);
  });
  EXPECT_EQ(data.DeviceIds(), (std::set<uint32_t>{1}));
}

TEST(TreeData, ClearMakesOldRefsStale) {
  TreeData data;
  NodeRef s = data.Child(data.Root(), "s");
  data.Clear();
  EXPECT_FALSE(data.IsCurrent(s));
  EXPECT_TRUE(data.IsCurrent(data.Root()));
  KernelRecord r;
  r.end_ns = 1;
  EXPECT_FALSE(data.AddKernel(s, r, false));
  EXPECT_EQ(data.tree().size(), 1u);
}

TEST(TreeData, FlexibleMetricErrorsUseValueIndex) {
  TreeData data;
  NodeRef s = data.Child(data.Root(), "s");
  ASSERT_TRUE(data.AddMetrics(s, {{"x", int64_t{1}}, {"a", 1.0}}).ok());
  Status st = data.AddMetrics(s, {{"a", int64_t{1}}});
  EXPECT_EQ(st.message(),
            "Metric value type mismatch for valueId 1 (a): current=double, new=int64_t");
}

}  // namespace
}  // namespace proton
