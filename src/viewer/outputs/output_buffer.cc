// See output_buffer.h.
#include "viewer/outputs/output_buffer.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace proton::viewer {

OutputBuffer::OutputBuffer(int fd, size_t capacity)
    : fd_(fd), capacity_(capacity), buffer_(new char[capacity]) {}

OutputBuffer::~OutputBuffer() { Flush(); }

void OutputBuffer::Flush() {
  WriteAll(buffer_.get(), used_);
  used_ = 0;
}

void OutputBuffer::MakeRoom(size_t n) {
  Flush();
  if (n > capacity_) {
    buffer_.reset(new char[n]);
    capacity_ = n;
  }
}

void OutputBuffer::WriteSlow(std::string_view text) {
  Flush();
  if (text.size() >= capacity_) {
    WriteAll(text.data(), text.size());
    return;
  }
  std::copy(text.begin(), text.end(), buffer_.get());
  used_ = text.size();
}

void OutputBuffer::WriteAll(const char* data, size_t size) {
  while (size > 0 && error_ == 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      error_ = errno;  // the caller decides: EPIPE is quiet (§7.9), anything else an error
      return;
    }
    if (n == 0) {
      error_ = EIO;  // no progress: do not spin
      return;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
}

}  // namespace proton::viewer
