// Buffered standard output for the printers (viewer.md §7.9): one large buffer written with
// write(2), so huge trees stream out in big chunks without per-line system calls. A write
// error (a closed pipe) makes every later write a no-op, so the program stops quietly.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace proton::viewer {

class OutputBuffer {
 public:
  explicit OutputBuffer(int fd, size_t capacity = size_t{1} << 20);
  ~OutputBuffer();  // flushes
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  void Write(std::string_view text) {
    if (text.size() > buffer_.size() - used_) {
      WriteSlow(text);
      return;
    }
    std::copy(text.begin(), text.end(), buffer_.data() + used_);
    used_ += text.size();
  }
  // Room for `n` more bytes (n ≤ capacity); write there, then Commit(end).
  char* Reserve(size_t n) {
    if (n > buffer_.size() - used_) Flush();
    return buffer_.data() + used_;
  }
  void Commit(char* end) { used_ = static_cast<size_t>(end - buffer_.data()); }

  void Flush();
  bool failed() const { return failed_; }

 private:
  void WriteSlow(std::string_view text);
  void WriteAll(const char* data, size_t size);

  int fd_;
  std::vector<char> buffer_;
  size_t used_ = 0;
  bool failed_ = false;
};

}  // namespace proton::viewer
