// GraphTracker: clone chains, reference-counted capture origins, exec node counts, and bounded
// memory over many graphs (profiler.md §3.8, §5.10).
#include "cupti/graph_tracker.h"

#include <gtest/gtest.h>

namespace proton::cupti {
namespace {

TEST(GraphTrackerTest, CloneKeepsOriginAfterSourceGraphIsDestroyed) {
  GraphTracker t;
  t.NodeCreated(1, 10, /*is_kernel=*/true, /*captured=*/true);
  t.NodeCreated(2, 10, /*is_kernel=*/false, /*captured=*/false);  // a memset node
  t.NodeCloned(11, 1, 20, 7, true);
  t.NodeCloned(12, 2, 20, 7, false);
  t.ExecCreated(7, 10);
  EXPECT_EQ(t.LookupExec(7).known, true);
  EXPECT_EQ(t.LookupExec(7).kernel_nodes, 1u);
  EXPECT_TRUE(t.GraphDestroyed(10).empty());  // the clone still refers to origin 1
  EXPECT_EQ(t.CaptureOrigin(11), 1u);
  EXPECT_EQ(t.CaptureOrigin(12), 0u);  // not captured
  EXPECT_EQ(t.ExecDestroyed(7), (std::vector<uint64_t>{1}));
  EXPECT_EQ(t.node_count(), 0u);
  EXPECT_EQ(t.origin_count(), 0u);
  EXPECT_EQ(t.exec_count(), 0u);
}

TEST(GraphTrackerTest, CreatedThenClonedEventsForTheSameNode) {
  GraphTracker t;
  t.NodeCreated(1, 10, true, true);
  t.NodeCreated(5, 30, true, false);  // CUPTI reports the clone as created first
  t.NodeCloned(5, 1, 30, 0, true);
  t.NodeCloned(6, 5, 31, 0, true);  // a clone of the clone
  EXPECT_EQ(t.CaptureOrigin(6), 1u);
  EXPECT_EQ(t.origin_count(), 1u);
  t.ExecCreated(9, 30);  // exec nodes not named: count from the source graph
  EXPECT_EQ(t.LookupExec(9).kernel_nodes, 1u);
  EXPECT_TRUE(t.NodeDestroyed(1).empty());
  EXPECT_TRUE(t.NodeDestroyed(5).empty());
  EXPECT_EQ(t.NodeDestroyed(6), (std::vector<uint64_t>{1}));
  EXPECT_TRUE(t.NodeDestroyed(6).empty());  // idempotent
}

TEST(GraphTrackerTest, UnknownExecAndUnknownNode) {
  GraphTracker t;
  EXPECT_FALSE(t.LookupExec(3).known);
  EXPECT_EQ(t.CaptureOrigin(77), 0u);
  EXPECT_TRUE(t.ExecDestroyed(3).empty());
}

TEST(GraphTrackerTest, ManyCaptureInstantiateDestroyCyclesStayBounded) {
  GraphTracker t;
  for (uint64_t i = 0; i < 100000; ++i) {
    uint64_t base = i * 4;
    t.NodeCreated(base + 1, static_cast<uint32_t>(i * 2 + 1), true, true);
    t.NodeCloned(base + 2, base + 1, static_cast<uint32_t>(i * 2 + 2), static_cast<uint32_t>(i + 1),
                 true);
    t.ExecCreated(static_cast<uint32_t>(i + 1), static_cast<uint32_t>(i * 2 + 1));
    t.GraphDestroyed(static_cast<uint32_t>(i * 2 + 1));
    EXPECT_EQ(t.ExecDestroyed(static_cast<uint32_t>(i + 1)).size(), 1u);
  }
  EXPECT_EQ(t.node_count(), 0u);
  EXPECT_EQ(t.origin_count(), 0u);
  EXPECT_EQ(t.exec_count(), 0u);
}

TEST(GraphTrackerTest, ClearReturnsLiveCapturedOrigins) {
  GraphTracker t;
  t.NodeCreated(1, 10, true, true);
  t.NodeCreated(2, 10, true, false);
  EXPECT_EQ(t.Clear(), (std::vector<uint64_t>{1}));
  EXPECT_EQ(t.node_count(), 0u);
}

// The H200's sequence for a native program (CUDA 13.0, PROTON_DEBUG_CALLBACKS): two kernels
// captured into graph 1, instantiation creates and clones them into graph 2 (exec 0 in the
// clone events), then the exec is created from graph 1; replayed records name graph 2's nodes.
TEST(GraphTrackerTest, InstantiationThatCreatesThenClonesIntoAnInternalGraph) {
  GraphTracker t;
  const uint64_t a = uint64_t{1} << 32, b = a + 1, a2 = uint64_t{2} << 32, b2 = a2 + 1;
  t.NodeCreated(a, 1, true, true);
  t.NodeCreated(b, 1, true, true);
  t.NodeCreated(a2, 2, true, false);
  t.NodeCloned(a2, a, 2, 0, true);
  t.NodeCreated(b2, 2, true, false);
  t.NodeCloned(b2, b, 2, 0, true);
  t.ExecCreated(2, 1);
  EXPECT_EQ(t.CaptureOrigin(a2), a);
  EXPECT_EQ(t.CaptureOrigin(b2), b);
  EXPECT_EQ(t.LookupExec(2).kernel_nodes, 2u);
  EXPECT_TRUE(t.GraphDestroyed(1).empty());  // PyTorch destroys the captured graph here
  EXPECT_EQ(t.CaptureOrigin(a2), a);
}

}  // namespace
}  // namespace proton::cupti
