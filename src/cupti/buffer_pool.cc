// The capped, aligned activity buffer pool.
#include "cupti/buffer_pool.h"

#include <new>
#include <utility>

namespace proton::cupti {

BufferPool::BufferPool(size_t buffer_size, size_t max_free)
    : buffer_size_((buffer_size + kAlignment - 1) & ~(kAlignment - 1)), max_free_(max_free) {}

BufferPool::Buffer BufferPool::Allocate() const {
  // aligned_alloc needs a size that is a multiple of the alignment, which buffer_size_ is.
  return Buffer(static_cast<uint8_t*>(std::aligned_alloc(kAlignment, buffer_size_)));
}

uint8_t* BufferPool::Acquire() {
  Buffer buffer;
  {
    MutexLock lock(mutex_);
    if (!free_.empty()) {
      buffer = std::move(free_.back());
      free_.pop_back();
    }
  }
  if (!buffer) buffer = Allocate();  // outside the lock: allocation may take a while
  if (!buffer) return nullptr;
  uint8_t* raw = buffer.get();
  MutexLock lock(mutex_);
  in_use_.emplace(raw, std::move(buffer));
  return raw;
}

void BufferPool::Release(uint8_t* raw) {
  Buffer buffer;
  MutexLock lock(mutex_);
  auto it = in_use_.find(raw);
  if (it == in_use_.end()) return;
  buffer = std::move(it->second);
  in_use_.erase(it);
  if (free_.size() < max_free_) free_.push_back(std::move(buffer));
  // Otherwise `buffer` frees the memory when it goes out of scope.
}

void BufferPool::Reserve(size_t count) {
  std::vector<Buffer> fresh;
  {
    MutexLock lock(mutex_);
    if (free_.size() >= count) return;
    count -= free_.size();
  }
  for (size_t i = 0; i < count; ++i) {
    Buffer buffer = Allocate();
    if (buffer) fresh.push_back(std::move(buffer));
  }
  MutexLock lock(mutex_);
  for (Buffer& buffer : fresh) {
    if (free_.size() < max_free_) free_.push_back(std::move(buffer));
  }
}

size_t BufferPool::in_use() const {
  MutexLock lock(mutex_);
  return in_use_.size();
}

size_t BufferPool::free_count() const {
  MutexLock lock(mutex_);
  return free_.size();
}

}  // namespace proton::cupti
