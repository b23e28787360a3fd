// See output_buffer.h.
#include "viewer/output_buffer.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace proton::viewer {

OutputBuffer::OutputBuffer(int fd, size_t capacity) : fd_(fd), buffer_(capacity) {}

OutputBuffer::~OutputBuffer() { Flush(); }

void OutputBuffer::Flush() {
  WriteAll(buffer_.data(), used_);
  used_ = 0;
}

void OutputBuffer::WriteSlow(std::string_view text) {
  Flush();
  if (text.size() >= buffer_.size()) {
    WriteAll(text.data(), text.size());
    return;
  }
  std::copy(text.begin(), text.end(), buffer_.data());
  used_ = text.size();
}

void OutputBuffer::WriteAll(const char* data, size_t size) {
  while (size > 0 && !failed_) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      failed_ = true;  // EPIPE and friends: stop quietly (§7.9)
      return;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
}

}  // namespace proton::viewer
