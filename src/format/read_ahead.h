// Sequential reading of a file descriptor one chunk ahead, on a helper thread, so that the
// kernel's copy of the next chunk overlaps the parsing of the current one (the JSON fast
// path spent ~7% of its time in read() on a 20 MB profile). Two buffers: the consumer parses
// one while the thread fills the other. Each buffer has `headroom` bytes in front of its
// chunk, where Next() puts the bytes the consumer had not finished, so a field that straddles
// two chunks is contiguous without copying the chunk itself.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <thread>

#include "util/thread_annotations.h"

namespace proton::format {

class ReadAhead {
 public:
  // Starts reading `fd` from its current offset in chunks of `chunk` bytes. Each buffer is
  // followed by `tail` zero bytes (the parser's sentinel and overread room). Where no thread
  // can be started, Next() reads each chunk itself.
  ReadAhead(int fd, size_t chunk, size_t headroom, size_t tail);
  // Stops the thread (after the read in flight, if any). The fd's offset is then anywhere.
  ~ReadAhead();
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  struct Span {
    const char* begin = nullptr;  // `left` carried bytes, then the new chunk
    const char* end = nullptr;    // *end == '\0'
    bool eof = false;             // the chunk is the last (possibly empty) one
    bool error = false;           // read() failed; nothing else is valid
    int error_number = 0;         // read()'s errno when `error`
  };
  // The next chunk, preceded by a copy of [rest, rest + left) (left <= headroom: the bytes of
  // the current chunk not consumed yet, which may point into it). The current chunk's buffer
  // goes back to the thread: nothing may point into it afterwards. Blocks until the chunk is read.
  // After the chunk marked eof or error, a further call returns error.
  Span Next(const char* rest, size_t left) PROTON_EXCLUDES(mutex_);

 private:
  struct Buffer {
    std::unique_ptr<char[]> bytes;
    size_t size = 0;      // bytes of chunk data read
    bool filled = false;  // read by the thread, not yet taken by the consumer
    bool eof = false;
    bool error = false;
    int error_number = 0;
  };
  void Run() PROTON_EXCLUDES(mutex_);
  // Reads the next chunk into buffers_[index]; false after the last chunk or an error.
  bool Fill(int index) PROTON_EXCLUDES(mutex_);
  char* Data(Buffer& b) const { return b.bytes.get() + headroom_; }

  const int fd_;
  const size_t chunk_, headroom_, tail_;
  Mutex mutex_;
  // Not guarded as a whole: a buffer's bytes and fields belong to whoever the protocol in
  // read_ahead.cc gives it to; `filled` changes only under mutex_.
  Buffer buffers_[2];
  int consumer_ PROTON_GUARDED_BY(mutex_) = -1;  // buffer the consumer holds (-1: none yet)
  int next_fill_ PROTON_GUARDED_BY(mutex_) = 0;  // buffer the thread fills next
  bool stop_ PROTON_GUARDED_BY(mutex_) = false;
  // The thread read the last chunk (or failed) and exited.
  bool finished_ PROTON_GUARDED_BY(mutex_) = false;
  std::condition_variable_any changed_;
  std::thread thread_;
};

}  // namespace proton::format
