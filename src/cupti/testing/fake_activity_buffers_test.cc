// The fake libcupti's activity buffers: records come back through the completion callback
// once each, in buffers of the client's size, whether one thread or several append at once.
#include "cupti/testing/fake_activity_buffers.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace proton::fakecupti {
namespace {

constexpr size_t kBufferSize = 4096;  // fewer than 20 kernel records

// The client side, as plain functions (CUPTI takes function pointers).
std::mutex g_mutex;
std::vector<uint32_t> g_delivered;  // correlation ids, in completion order
int g_requests = 0;
int g_completions = 0;

void CUPTIAPI Requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_requests;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferSize));
  *size = kBufferSize;
  *max_records = 0;
}

void CUPTIAPI Completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::vector<uint32_t> ids;
  CUpti_Activity* record = nullptr;
  while (ActivityBuffers::NextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    ids.push_back(reinterpret_cast<KernelActivity*>(record)->correlationId);
  }
  std::free(buffer);
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_completions;
  g_delivered.insert(g_delivered.end(), ids.begin(), ids.end());
}

KernelActivity Record(uint32_t correlation_id) {
  KernelActivity record{};
  record.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  record.correlationId = correlation_id;
  return record;
}

class FakeActivityBuffersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_delivered.clear();
    g_requests = g_completions = 0;
    buffers_.Register(&Requested, &Completed);
  }
  ActivityBuffers buffers_;
};

TEST_F(FakeActivityBuffersTest, FullBuffersCompleteDuringAppendsAndFlushTakesTheRest) {
  constexpr size_t kPerBuffer = kBufferSize / sizeof(KernelActivity);
  for (uint32_t id = 1; id <= kPerBuffer + 1; ++id) buffers_.Append(Record(id));
  ASSERT_EQ(g_delivered.size(), kPerBuffer);  // the first buffer, when record N+1 came
  buffers_.Flush();
  buffers_.Flush();  // nothing left: no empty completion
  ASSERT_EQ(g_delivered.size(), kPerBuffer + 1);
  for (uint32_t id = 1; id <= kPerBuffer + 1; ++id) EXPECT_EQ(g_delivered[id - 1], id);
  EXPECT_EQ(g_completions, 2);
  EXPECT_EQ(buffers_.TakeDropped(), 0u);
}

TEST_F(FakeActivityBuffersTest, NoBufferFromTheClientIsADroppedRecord) {
  buffers_.Register([](uint8_t** b, size_t* s, size_t* m) { *b = nullptr, *s = 0, *m = 0; },
                    &Completed);
  buffers_.Append(Record(1));
  buffers_.Append(Record(2));
  EXPECT_EQ(buffers_.TakeDropped(), 2u);
  EXPECT_EQ(buffers_.TakeDropped(), 0u);  // reported once
}

TEST_F(FakeActivityBuffersTest, ConcurrentAppendsDeliverEveryRecordOnce) {
  constexpr uint32_t kThreads = 8, kPerThread = 20000;
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t] {
      for (uint32_t i = 0; i < kPerThread; ++i) buffers_.Append(Record(t * kPerThread + i + 1));
    });
  }
  for (auto& thread : threads) thread.join();
  buffers_.Flush();
  std::vector<int> seen(kThreads * kPerThread + 1, 0);
  for (uint32_t id : g_delivered) ++seen.at(id);
  for (uint32_t id = 1; id < seen.size(); ++id) ASSERT_EQ(seen[id], 1) << "record " << id;
  EXPECT_EQ(buffers_.TakeDropped(), 0u);
  EXPECT_EQ(g_requests, g_completions);  // every buffer handed back
}

}  // namespace
}  // namespace proton::fakecupti
