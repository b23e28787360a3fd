// BufferPool: size, alignment, reuse, cap on cached buffers, ownership of unknown pointers.
#include "cupti/buffer_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cupti/cupti_env.h"

namespace proton::cupti {
namespace {

TEST(BufferPoolTest, BuffersAreAlignedAndReused) {
  BufferPool pool(1001, 2);
  EXPECT_EQ(pool.buffer_size(), 1008u);
  uint8_t* a = pool.Acquire();
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 8, 0u);
  pool.Release(a);
  EXPECT_EQ(pool.Acquire(), a);  // from the free list
  EXPECT_EQ(pool.in_use(), 1u);
  pool.Release(a);
}

TEST(BufferPoolTest, FreeListIsCapped) {
  BufferPool pool(64, 2);
  std::vector<uint8_t*> buffers;
  buffers.reserve(5);
  for (int i = 0; i < 5; ++i) buffers.push_back(pool.Acquire());
  EXPECT_EQ(pool.in_use(), 5u);
  for (uint8_t* b : buffers) pool.Release(b);
  EXPECT_EQ(pool.in_use(), 0u);
  EXPECT_EQ(pool.free_count(), 2u);
  int unrelated = 0;
  pool.Release(reinterpret_cast<uint8_t*>(&unrelated));  // ignored, never freed
  EXPECT_EQ(pool.free_count(), 2u);
}

TEST(BufferPoolTest, ReserveAllocatesAhead) {
  BufferPool pool(64, 3);
  pool.Reserve(2);
  EXPECT_EQ(pool.free_count(), 2u);
}

TEST(BufferSizeTest, ParsesTheKnob) {
  EXPECT_EQ(ParseBufferSize(""), DefaultBufferSize());
  EXPECT_EQ(ParseBufferSize("65536"), 65536u);
  EXPECT_EQ(ParseBufferSize("65537"), 65544u);  // rounded up to 8 bytes
  EXPECT_EQ(ParseBufferSize("12"), 4096u);      // at least 4 KiB
  EXPECT_EQ(ParseBufferSize("abc"), DefaultBufferSize());
  EXPECT_EQ(ParseBufferSize("-5"), DefaultBufferSize());
}

}  // namespace
}  // namespace proton::cupti
