// Tests for the merged trace's flow ids: both ends kept and renumbered in id order, one-ended
// and repeated ids dropped, dense and sparse ids alike.
#include "viewer/traces/flow_renumber.h"

#include <gtest/gtest.h>

#include <vector>

namespace proton::viewer::traces {
namespace {

// A store of instants, each starting (out) or ending (in) one flow id.
void AddFlow(TraceStore& store, uint64_t id, bool start) {
  TraceEvent e;
  e.kind = EventKind::kFlow;
  e.instant = true;
  (start ? e.flows_out : e.flows_in) = std::span<const uint64_t>(&id, 1);
  ASSERT_TRUE(store.OnEvent(e).ok());
}

std::vector<uint64_t> Renumber(uint64_t base, uint64_t stride, uint64_t& next, FlowCounts& c) {
  TraceStore store;
  EXPECT_TRUE(store.OnTrack(Track{}).ok());
  // ids base + k * stride: 0 and 2 whole (ends in either order), 1 only started, 3 ended twice.
  auto id = [&](uint64_t k) { return base + k * stride; };
  AddFlow(store, id(2), false);
  AddFlow(store, id(0), true);
  AddFlow(store, id(1), true);
  AddFlow(store, id(0), false);
  AddFlow(store, id(3), false);
  AddFlow(store, id(2), true);
  AddFlow(store, id(3), false);
  FlowScratch scratch;
  c = RenumberFlows(store, next, scratch);
  return store.flow_ids();
}

TEST(RenumberFlows, WholeFlowsGetNewIdsInIdOrderAndTheRestZero) {
  const std::vector<uint64_t> expected = {11, 10, 0, 10, 0, 11, 0};
  for (const auto& [base, stride] : {std::pair<uint64_t, uint64_t>{1, 1},              // dense
                                     std::pair<uint64_t, uint64_t>{1ull << 32, 1},     // offset
                                     std::pair<uint64_t, uint64_t>{5, 1ull << 40}}) {  // sparse
    uint64_t next = 10;
    FlowCounts counts;
    EXPECT_EQ(Renumber(base, stride, next, counts), expected) << base << " " << stride;
    EXPECT_EQ(next, 12u);
    EXPECT_EQ(counts.kept, 2u);
    EXPECT_EQ(counts.dropped, 2u);
  }
}

}  // namespace
}  // namespace proton::viewer::traces
