// See read_ahead.h. Ownership of the two buffers: the consumer owns `consumer_`; the thread
// writes only a buffer that is neither the consumer's nor `filled`; a `filled` buffer is
// read-only until the consumer takes it. All of that state changes under mutex_.
#include "format/read_ahead.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace proton::format {

ReadAhead::ReadAhead(int fd, size_t chunk, size_t headroom, size_t tail)
    : fd_(fd), chunk_(chunk), headroom_(headroom), tail_(tail) {
  for (Buffer& b : buffers_) b.bytes.reset(new char[headroom + chunk + tail]);
  try {
    thread_ = std::thread([this] { Run(); });
  } catch (const std::system_error&) {
    // No thread to be had (address space or thread limits): Next() reads each chunk itself.
  }
}

ReadAhead::~ReadAhead() {
  if (!thread_.joinable()) return;
  {
    MutexLock lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ReadAhead::Run() {
  for (;;) {
    int index;
    {
      MutexLock lock(mutex_);
      lock.Wait(changed_, [this]() PROTON_REQUIRES(mutex_) {
        return stop_ || (next_fill_ != consumer_ && !buffers_[next_fill_].filled);
      });
      if (stop_) return;
      index = next_fill_;
    }
    if (!Fill(index)) return;
  }
}

bool ReadAhead::Fill(int index) {
  Buffer& b = buffers_[index];
  char* data = Data(b);
  size_t have = 0;
  bool eof = false, error = false;
  int error_number = 0;
  while (have < chunk_) {
    const ssize_t got = ::read(fd_, data + have, chunk_ - have);
    if (got < 0) {
      if (errno == EINTR) continue;
      error = true;
      error_number = errno;
      break;
    }
    if (got == 0) {
      eof = true;
      break;
    }
    have += static_cast<size_t>(got);
  }
  std::memset(data + have, 0, tail_);
  {
    MutexLock lock(mutex_);
    b.size = have;
    b.eof = eof;
    b.error = error;
    b.error_number = error_number;
    b.filled = true;
    next_fill_ = 1 - index;
    finished_ = eof || error;
  }
  changed_.notify_all();
  return !(eof || error);
}

ReadAhead::Span ReadAhead::Next(const char* rest, size_t left) {
  Span span;
  if (left > headroom_) {
    span.error = true;
    return span;
  }
  int want = 0;
  bool fill_here = false;
  {
    MutexLock lock(mutex_);
    want = consumer_ < 0 ? 0 : 1 - consumer_;
    fill_here = !thread_.joinable() && !buffers_[want].filled && !finished_;
  }
  Buffer& b = buffers_[want];
  if (fill_here) Fill(want);
  {
    MutexLock lock(mutex_);
    lock.Wait(changed_, [this, &b]() PROTON_REQUIRES(mutex_) { return b.filled || finished_; });
    if (!b.filled) {  // called again after the last chunk: a caller error
      span.error = true;
      return span;
    }
  }
  // `b` is ours to read now, and `rest` (in the consumer's buffer) is still untouched: the
  // thread writes neither until consumer_ changes below.
  char* data = Data(b);
  if (left > 0) std::memmove(data - left, rest, left);
  span.begin = data - left;
  span.end = data + b.size;
  span.eof = b.eof;
  span.error = b.error;
  span.error_number = b.error_number;
  {
    MutexLock lock(mutex_);
    b.filled = false;
    consumer_ = want;
  }
  changed_.notify_all();
  return span;
}

}  // namespace proton::format
