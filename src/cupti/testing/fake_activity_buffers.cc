// The fake libcupti's activity buffers: filling, completion and record iteration.
#include "cupti/testing/fake_activity_buffers.h"

#include <cstring>
#include <utility>

namespace proton::fakecupti {
namespace {
// Another thread may fill the fresh buffer between its installation and our append; after
// this many rounds the record counts as dropped rather than spinning.
constexpr int kAppendAttempts = 8;
}  // namespace

void ActivityBuffers::Register(CUpti_BuffersCallbackRequestFunc request,
                               CUpti_BuffersCallbackCompleteFunc complete) {
  MutexLock lock(mutex_);
  request_ = request;
  complete_ = complete;
}

ActivityBuffers::Buffer ActivityBuffers::Request() {
  CUpti_BuffersCallbackRequestFunc request = nullptr;
  {
    MutexLock lock(mutex_);
    request = request_;
  }
  Buffer fresh;
  if (request == nullptr) return fresh;
  size_t max_records = 0;
  request(&fresh.data, &fresh.size, &max_records);
  if (fresh.data == nullptr) fresh.size = 0;
  if (fresh.data != nullptr) std::memset(fresh.data, 0, fresh.size);
  return fresh;
}

void ActivityBuffers::Complete(const Buffer& buffer) {
  if (buffer.data == nullptr) return;
  CUpti_BuffersCallbackCompleteFunc complete = nullptr;
  {
    MutexLock lock(mutex_);
    complete = complete_;
  }
  if (complete != nullptr) complete(nullptr, 0, buffer.data, buffer.size, buffer.used);
}

void ActivityBuffers::Install(const Buffer& fresh) {
  Buffer spare;
  {
    MutexLock lock(mutex_);
    if (current_.data == nullptr) {
      current_ = fresh;
    } else {
      spare = fresh;  // another thread installed one first
    }
  }
  Complete(spare);  // handed back empty, so the client can reuse it
}

void ActivityBuffers::Prepare() {
  {
    MutexLock lock(mutex_);
    if (current_.data != nullptr) return;
  }
  Install(Request());
}

bool ActivityBuffers::TryAppend(const KernelActivity& record) {
  Buffer full;
  {
    MutexLock lock(mutex_);
    if (current_.data != nullptr && current_.used + sizeof(record) <= current_.size) {
      std::memcpy(current_.data + current_.used, &record, sizeof(record));
      current_.used += sizeof(record);
      return true;
    }
    full = std::exchange(current_, Buffer{});
  }
  Complete(full);
  Buffer fresh = Request();
  if (fresh.data != nullptr && fresh.size < sizeof(record)) {
    Complete(fresh);  // too small for any record: give it back
    fresh = Buffer{};
  }
  if (fresh.data == nullptr) {
    MutexLock lock(mutex_);
    ++dropped_;
    return true;  // dropped: counted, nothing more to try
  }
  Install(fresh);
  return false;
}

void ActivityBuffers::Append(const KernelActivity& record) {
  for (int attempt = 0; attempt < kAppendAttempts; ++attempt) {
    if (TryAppend(record)) return;
  }
  MutexLock lock(mutex_);
  ++dropped_;
}

void ActivityBuffers::Flush() {
  Buffer partial;
  {
    MutexLock lock(mutex_);
    if (current_.used == 0) return;
    partial = std::exchange(current_, Buffer{});
  }
  Complete(partial);
}

ActivityBuffers::Buffer ActivityBuffers::TakeHeld() {
  MutexLock lock(mutex_);
  return std::exchange(current_, Buffer{});
}

void ActivityBuffers::CompleteHeld() { Complete(TakeHeld()); }

void ActivityBuffers::Teardown() {
  Buffer held = TakeHeld();
  if (held.data == nullptr) held = Request();
  Complete(held);
}

size_t ActivityBuffers::TakeDropped() {
  MutexLock lock(mutex_);
  return std::exchange(dropped_, 0);
}

CUptiResult ActivityBuffers::NextRecord(uint8_t* buffer, size_t valid_size,
                                        CUpti_Activity** record) {
  if (buffer == nullptr || record == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  uint8_t* next =
      *record == nullptr ? buffer : reinterpret_cast<uint8_t*>(*record) + sizeof(KernelActivity);
  if (next + sizeof(KernelActivity) > buffer + valid_size) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = reinterpret_cast<CUpti_Activity*>(next);
  return CUPTI_SUCCESS;
}

}  // namespace proton::fakecupti
