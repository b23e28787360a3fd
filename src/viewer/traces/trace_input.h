// The bytes of one trace file, read front to back through a window: a JSON trace of many GB
// is never held whole (and never read twice), and memory is the window plus the longest
// item a reader keeps in it (one event, one packet). A reader parses in the window and, when
// an item runs past its end, asks for more, keeping the bytes from the item's start.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "util/status.h"

namespace proton::viewer::traces {

class TraceInput {
 public:
  // Zero bytes after the window's end: a parser may look this far past it, and the first one
  // is a sentinel that ends every scan (a NUL is never valid JSON text).
  static constexpr size_t kTail = 64;

  // Opens `path` ("-" = standard input). A FIFO without a writer is waited for 10 seconds.
  // Errors: "cannot open 'F': <strerror>", "cannot open 'F': no process opened the FIFO
  // for writing within 10 seconds".
  static Result<std::unique_ptr<TraceInput>> Open(std::string_view path);
  // Bytes already in memory (tests, the fuzz target), named `name` in messages.
  static std::unique_ptr<TraceInput> FromBytes(std::string_view bytes, std::string name);

  TraceInput(const TraceInput&) = delete;
  TraceInput& operator=(const TraceInput&) = delete;
  ~TraceInput();

  const std::string& name() const { return name_; }
  // The window [begin, end); *end == '\0', followed by kTail - 1 more zero bytes.
  const char* begin() const { return buffer_.get(); }
  const char* end() const { return buffer_.get() + size_; }
  // The position of `p` (inside the window) in the file, for messages.
  uint64_t Offset(const char* p) const { return dropped_ + static_cast<uint64_t>(p - begin()); }
  // The file's size when it is a regular file (0 otherwise).
  uint64_t file_size() const { return file_size_; }
  bool at_eof() const { return eof_; }

  // Reads more. The bytes before `keep` are dropped and [keep, end) moves to the window's
  // front; `keep` is updated to its new address. At least as many bytes as are kept are read
  // (and at least 1 MiB), so an item that spans many chunks is scanned again a bounded number
  // of times in all, not once per chunk. Returns false when nothing more could be read (the
  // end of the input); a failing read() is "cannot read 'F': <strerror>".
  Result<bool> Refill(const char*& keep);

  // Tests: the bytes asked of read() per refill (0 restores 1 MiB), so that items straddle
  // window ends everywhere. Not to be changed while a trace is read.
  static void SetChunkForTest(size_t bytes);

 private:
  TraceInput(int fd, bool owns_fd, bool fifo, std::string name, uint64_t file_size);
  Status Reserve(size_t bytes);
  // One read() of at most `max` bytes into the window's free space: bytes read, 0 at the
  // end, -1 on an error (read_errno_ set).
  ptrdiff_t ReadSome(size_t max);

  int fd_ = -1;
  bool owns_fd_ = false;
  bool writer_seen_ = true;  // a FIFO's writer has shown up (until then, 0 means "not yet")
  int waited_ms_ = 0;
  std::string name_;
  uint64_t file_size_ = 0;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;  // bytes of buffer_ before the tail
  size_t size_ = 0;
  uint64_t dropped_ = 0;  // bytes of the file before the window
  bool eof_ = false;
  int read_errno_ = 0;
  bool no_writer_ = false;
};

}  // namespace proton::viewer::traces
