// Decoding synthetic activity buffers built with the real CUPTI kernel record struct.
#include "cupti/record_decoder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cupti/testing/fake_cupti.h"

namespace proton::cupti {
namespace {

class CollectingSink : public BackendSink {
 public:
  void OnLaunchEnter(uint64_t, std::string_view, uint32_t) override {}
  void OnLaunchExit(uint64_t) override {}
  void OnKernelRecord(const KernelRecord& r) override {
    names.emplace_back(r.name);
    ids.push_back(r.correlation_id);
    graph_nodes.push_back(r.graph_node_id);
  }
  void OnBufferCompleted(uint64_t) override {}
  void OnRecordsLost(RecordLoss, uint64_t) override {}
  void OnNvtxPush(std::string_view) override {}
  void OnNvtxPop() override {}
  std::vector<std::string> names;
  std::vector<uint64_t> ids;
  std::vector<uint64_t> graph_nodes;
};

TEST(RecordDecoderTest, DecodesCompleteRecordsAndCountsIncomplete) {
  testing::ResetFake();
  std::vector<KernelActivity> records = {
      testing::MakeKernel(3, 100, 250, "_ZN2at6native18elementwise_kernel"),
      testing::MakeKernel(9, 300, 300, "zero_length"),  // start == end: incomplete
      testing::MakeKernel(4, 400, 0, "unfinished"),     // end 0: incomplete
      testing::MakeKernel(5, 500, 900, "nvjet_sm90_hsh_128x64_64x8_1x2_h_bz_NNT", 13, 1),
  };
  std::vector<uint8_t> buffer = testing::PackRecords(records);
  CollectingSink sink;
  BufferStats stats =
      DecodeActivityBuffer(*testing::FakeCuptiApi(), buffer.data(), buffer.size(), nullptr, &sink);
  EXPECT_EQ(stats.kernel_records, 2u);
  EXPECT_EQ(stats.incomplete, 2u);
  EXPECT_EQ(stats.max_correlation_id, 9u);  // incomplete records still completed their id
  EXPECT_EQ(sink.names, (std::vector<std::string>{"_ZN2at6native18elementwise_kernel",
                                                  "nvjet_sm90_hsh_128x64_64x8_1x2_h_bz_NNT"}));
}

TEST(RecordDecoderTest, SkipsOtherKindsAndEmptyBuffers) {
  testing::ResetFake();
  KernelActivity other = testing::MakeKernel(1, 1, 2, "x");
  other.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  std::vector<uint8_t> buffer = testing::PackRecords({other});
  CollectingSink sink;
  BufferStats stats =
      DecodeActivityBuffer(*testing::FakeCuptiApi(), buffer.data(), buffer.size(), nullptr, &sink);
  EXPECT_EQ(stats.other_records, 1u);
  EXPECT_TRUE(sink.names.empty());
  stats = DecodeActivityBuffer(*testing::FakeCuptiApi(), nullptr, 0, nullptr, &sink);
  EXPECT_EQ(stats.kernel_records, 0u);
}

TEST(RecordDecoderTest, GraphRecordsCarryTheCaptureKey) {
  testing::ResetFake();
  GraphTracker graphs;
  graphs.NodeCreated(40, 1, true, true);
  graphs.NodeCloned(41, 40, 2, 6, true);
  KernelActivity k =
      testing::MakeKernel(2, 10, 20, "k", 7, 0, /*graph_id=*/6, /*graph_node_id=*/41);
  KernelRecord r = ToKernelRecord(k, &graphs);
  EXPECT_EQ(r.graph_id, 6u);
  EXPECT_EQ(r.graph_node_id, 40u);
  k.graphNodeId = 999;  // unknown node: fallback
  EXPECT_EQ(ToKernelRecord(k, &graphs).graph_node_id, 0u);
  k.graphId = 0;  // not a graph kernel
  EXPECT_EQ(ToKernelRecord(k, &graphs).graph_node_id, 0u);
}

}  // namespace
}  // namespace proton::cupti
