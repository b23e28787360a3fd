// See trace_input.h.
#include "viewer/traces/trace_input.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "format/profile_reader.h"
#include "util/out_of_memory.h"

namespace proton::viewer::traces {
namespace {

// Bytes asked of read() per refill: large enough that the parser's restart of the item that
// straddles two chunks costs nothing measurable, small enough to stay in the caches.
constexpr size_t kDefaultChunk = size_t{1} << 20;
constexpr size_t kInitialCapacity = 2 * kDefaultChunk;
size_t g_chunk = kDefaultChunk;
// As format/profile_reader.cc: a FIFO's writer is waited for this long, never forever.
constexpr int kFifoWriterWaitMs = 10000;
constexpr int kFifoPollMs = 100;

Error OpenError(const std::string& name, int err) {
  return Status::Error("cannot open '" + name + "': " + std::strerror(err));
}

}  // namespace

TraceInput::TraceInput(int fd, bool owns_fd, bool fifo, std::string name, uint64_t file_size)
    : fd_(fd),
      owns_fd_(owns_fd),
      writer_seen_(!fifo),
      name_(std::move(name)),
      file_size_(file_size) {}

TraceInput::~TraceInput() {
  if (owns_fd_) ::close(fd_);
}

void TraceInput::SetChunkForTest(size_t bytes) { g_chunk = bytes == 0 ? kDefaultChunk : bytes; }

Result<std::unique_ptr<TraceInput>> TraceInput::Open(std::string_view path) {
  const std::string name = format::DisplayName(path);
  int fd = STDIN_FILENO;
  const bool owns = path != "-";
  if (owns) {
    // O_NONBLOCK: opening a FIFO must not wait for its writer without a bound (ReadSome).
    fd = ::open(std::string(path).c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return OpenError(name, errno);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    const int err = S_ISDIR(st.st_mode) ? EISDIR : errno;
    if (owns) ::close(fd);
    return OpenError(name, err);
  }
  const bool regular = S_ISREG(st.st_mode);
  std::unique_ptr<TraceInput> input(new TraceInput(
      fd, owns, S_ISFIFO(st.st_mode), name, regular ? static_cast<uint64_t>(st.st_size) : 0));
  if (regular) ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  PROTON_RETURN_IF_ERROR(input->Reserve(kInitialCapacity));
  const char* keep = input->end();
  PROTON_RETURN_IF_ERROR(input->Refill(keep).status());
  return input;
}

std::unique_ptr<TraceInput> TraceInput::FromBytes(std::string_view bytes, std::string name) {
  std::unique_ptr<TraceInput> input(new TraceInput(-1, false, false, std::move(name), 0));
  input->buffer_.reset(new char[bytes.size() + kTail]);
  input->capacity_ = bytes.size();
  if (!bytes.empty()) std::memcpy(input->buffer_.get(), bytes.data(), bytes.size());
  std::memset(input->buffer_.get() + bytes.size(), 0, kTail);
  input->size_ = bytes.size();
  input->eof_ = true;
  return input;
}

Status TraceInput::Reserve(size_t bytes) {
  if (bytes <= capacity_) return Status();
  size_t capacity = capacity_ == 0 ? kInitialCapacity : capacity_;
  while (capacity < bytes) capacity *= 2;
  std::unique_ptr<char[]> bigger(new (std::nothrow) char[capacity + kTail]);
  if (!bigger) return OutOfMemory("reading '" + name_ + "'");
  if (size_ > 0) std::memcpy(bigger.get(), buffer_.get(), size_);
  std::memset(bigger.get() + size_, 0, kTail);
  buffer_ = std::move(bigger);
  capacity_ = capacity;
  return Status();
}

ptrdiff_t TraceInput::ReadSome(size_t max) {
  for (;;) {
    const ssize_t got = ::read(fd_, buffer_.get() + size_, std::min(max, capacity_ - size_));
    if (got > 0) writer_seen_ = true;
    if (got > 0 || (got == 0 && writer_seen_)) return got;
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && errno != EAGAIN) {
      read_errno_ = errno;
      return -1;
    }
    pollfd p{fd_, POLLIN, 0};
    if (got < 0) {  // a writer with no data yet (or a non-blocking descriptor): wait
      writer_seen_ = true;
      ::poll(&p, 1, -1);
      continue;
    }
    if (waited_ms_ >= kFifoWriterWaitMs) {
      no_writer_ = true;
      return -1;
    }
    // A FIFO that never had a writer polls as nothing; one whose writer left, as a hang-up.
    if (::poll(&p, 1, kFifoPollMs) > 0 && (p.revents & POLLIN) == 0) writer_seen_ = true;
    waited_ms_ += kFifoPollMs;
  }
}

Result<bool> TraceInput::Refill(const char*& keep) {
  if (eof_) return false;
  const size_t kept = static_cast<size_t>(end() - keep);
  const size_t drop = size_ - kept;
  if (drop > 0 && kept > 0) std::memmove(buffer_.get(), keep, kept);
  dropped_ += drop;
  size_ = kept;
  const size_t want = std::max(g_chunk, kept);
  PROTON_RETURN_IF_ERROR(Reserve(kept + want));
  const size_t before = size_;
  while (size_ - before < want) {
    const ptrdiff_t got = ReadSome(want - (size_ - before));
    if (got < 0 && no_writer_) {
      return Status::Error("cannot open '" + name_ + "': no process opened the FIFO for " +
                           "writing within " + std::to_string(kFifoWriterWaitMs / 1000) +
                           " seconds");
    }
    if (got < 0) return Status::Error("cannot read '" + name_ + "': " + std::strerror(read_errno_));
    if (got == 0) {
      eof_ = true;
      break;
    }
    size_ += static_cast<size_t>(got);
  }
  std::memset(buffer_.get() + size_, 0, kTail);
  keep = buffer_.get();
  return size_ > before;
}

}  // namespace proton::viewer::traces
