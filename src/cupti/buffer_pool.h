// Activity buffers handed to CUPTI (profiler.md §5.4): fixed size, 8-byte aligned, owned by the
// pool from allocation to free (RAII), and reused through a small capped free list so a buffer
// request on a launching thread rarely allocates.
// Threads: Acquire runs on the thread CUPTI requests a buffer on (often a launching thread),
// Release on the buffer-completion thread; both lock the pool's mutex briefly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "util/thread_annotations.h"

namespace proton::cupti {

class BufferPool {
 public:
  static constexpr size_t kAlignment = 8;
  // `max_free` buffers are kept for reuse; more are freed on release.
  explicit BufferPool(size_t buffer_size, size_t max_free = 3);
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // A buffer of buffer_size() bytes, or nullptr when memory is exhausted (CUPTI then drops
  // records and counts them).
  uint8_t* Acquire();
  // Gives a buffer from Acquire back. Unknown pointers are ignored (never freed twice).
  void Release(uint8_t* buffer);
  // Allocates up to `count` free buffers ahead of the first request.
  void Reserve(size_t count);

  size_t buffer_size() const { return buffer_size_; }
  size_t in_use() const;
  size_t free_count() const;

 private:
  struct FreeDeleter {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  using Buffer = std::unique_ptr<uint8_t, FreeDeleter>;
  Buffer Allocate() const;

  const size_t buffer_size_;
  const size_t max_free_;
  mutable Mutex mutex_;
  std::vector<Buffer> free_ PROTON_GUARDED_BY(mutex_);
  std::unordered_map<uint8_t*, Buffer> in_use_ PROTON_GUARDED_BY(mutex_);
};

}  // namespace proton::cupti
