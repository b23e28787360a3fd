// Buffered standard output for the printers (viewer.md §7.9): one large buffer written with
// write(2), so huge trees stream out in big chunks without per-line system calls. A write
// error makes every later write a no-op; error() keeps its errno, so that the command can
// report a full disk while a closed pipe (EPIPE) stays quiet.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string_view>

namespace proton::viewer {

class OutputBuffer {
 public:
  explicit OutputBuffer(int fd, size_t capacity = size_t{1} << 20);
  ~OutputBuffer();  // flushes
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  void Write(std::string_view text) {
    if (text.size() > capacity_ - used_) {
      WriteSlow(text);
      return;
    }
    std::copy(text.begin(), text.end(), buffer_.get() + used_);
    used_ += text.size();
  }
  // Room for `n` more bytes; write there, then Commit(end).
  char* Reserve(size_t n) {
    if (n > capacity_ - used_) MakeRoom(n);
    return buffer_.get() + used_;
  }
  void Commit(char* end) { used_ = static_cast<size_t>(end - buffer_.get()); }

  void Flush();
  bool failed() const { return error_ != 0; }
  int error() const { return error_; }  // errno of the first failed write, or 0

 private:
  void WriteSlow(std::string_view text);
  void MakeRoom(size_t n);  // flushes, and grows the buffer when n > capacity
  void WriteAll(const char* data, size_t size);

  int fd_;
  size_t capacity_;
  std::unique_ptr<char[]> buffer_;  // not zero-filled: only written bytes are read
  size_t used_ = 0;
  int error_ = 0;
};

}  // namespace proton::viewer
