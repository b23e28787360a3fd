// Reading a profile file (or standard input) into one padded buffer, detecting the format
// from the content (viewer.md §3.1) and dispatching to the JSON or MessagePack reader.
#include "format/profile_reader.h"

#include <fcntl.h>
#include <poll.h>
#include <simdjson.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "format/json_reader.h"
#include "format/json_stream_reader.h"
#include "format/mapped_file.h"
#include "format/msgpack_reader.h"
#include "format/sniff.h"
#include "tree/tree_invariants.h"
#include "util/out_of_memory.h"

namespace proton::format {

namespace {

constexpr size_t kPadding = simdjson::SIMDJSON_PADDING;

struct Buffer {
  std::unique_ptr<char[]> data;  // uninitialised: only the bytes read are ever touched
  size_t size = 0;
  size_t capacity = 0;
};

Error OpenError(std::string_view name, int err) {
  std::string m = "cannot open '";
  m.append(name).append("': ").append(std::strerror(err));
  return Status::Error(std::move(m));
}

// How long a FIFO that no process has opened for writing is waited for (viewer.md §3.1):
// the reference's open() would wait forever.
constexpr int kFifoWriterWaitMs = 10000;
constexpr int kFifoPollMs = 100;

// Why ReadAll stopped early: `refused` when the first bytes rule out both formats, `no_writer`
// when a FIFO had no writer within kFifoWriterWaitMs, else `err` (an errno). `spilled`: it
// stopped with success once a JSON document grew past JsonStreamThreshold(), for the caller
// to stream the rest.
struct ReadOutcome {
  int err = 0;
  bool refused = false;
  bool no_writer = false;
  bool spilled = false;
};

// Doubles the buffer's capacity, keeping its bytes.
bool Grow(Buffer& buf) {
  const size_t cap = buf.capacity * 2;
  std::unique_ptr<char[]> bigger(new (std::nothrow) char[cap]);
  if (!bigger) return false;
  std::memcpy(bigger.get(), buf.data.get(), buf.size);
  buf.data = std::move(bigger);
  buf.capacity = cap;
  return true;
}

// One read into buf for a descriptor that may be non-blocking (a FIFO or device opened with
// O_NONBLOCK so that open() could not block). Returns the bytes read, 0 at the end, -1 on an
// error. `writer_seen` starts false for a FIFO: until a writer has shown up (data, EAGAIN or
// a hang-up), an empty read means "no writer yet", which is waited for a bounded time.
ssize_t ReadSome(int fd, Buffer& buf, bool& writer_seen, int& waited_ms, ReadOutcome& out) {
  for (;;) {
    const ssize_t got = ::read(fd, buf.data.get() + buf.size, buf.capacity - buf.size - kPadding);
    if (got > 0) writer_seen = true;
    if (got > 0 || (got == 0 && writer_seen)) return got;
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && errno != EAGAIN) {
      out.err = errno;
      return -1;
    }
    pollfd p{fd, POLLIN, 0};
    if (got < 0) {  // a writer is there, with no data yet: wait as for any pipe
      writer_seen = true;
      ::poll(&p, 1, -1);
      continue;
    }
    if (waited_ms >= kFifoWriterWaitMs) {
      out.no_writer = true;
      return -1;
    }
    // A FIFO that never had a writer polls as nothing; one whose writer came and went as a
    // hang-up, which is its end.
    if (::poll(&p, 1, kFifoPollMs) > 0 && (p.revents & POLLIN) == 0) writer_seen = true;
    waited_ms += kFifoPollMs;
  }
}

// Reads everything from fd; `hint` is the expected size (0 when unknown). Stops early, with
// `refused` set, as soon as the first bytes rule out both formats: /dev/zero or a stream of
// random bytes would otherwise be read until memory runs out. Stops early too, with
// `spilled` set, once a JSON document grows past JsonStreamThreshold().
bool ReadAll(int fd, size_t hint, bool fifo, Buffer& buf, ReadOutcome& out) {
  Sniff sniff = Sniff::kMore;
  const size_t spill_above = JsonStreamThreshold();
  bool writer_seen = !fifo;
  int waited_ms = 0;
  buf.capacity = hint + kPadding + (hint == 0 ? 1 << 16 : 1);
  buf.data.reset(new (std::nothrow) char[buf.capacity]);
  if (!buf.data) {
    out.err = ENOMEM;
    return false;
  }
  for (;;) {
    if (buf.capacity - buf.size < kPadding + 1 && !Grow(buf)) {
      out.err = ENOMEM;
      return false;
    }
    const ssize_t got = ReadSome(fd, buf, writer_seen, waited_ms, out);
    if (got < 0) return false;
    if (got == 0) break;
    buf.size += static_cast<size_t>(got);
    if (sniff == Sniff::kMore) sniff = SniffFormat(buf.data.get(), buf.size);
    if (sniff == Sniff::kNeither) {
      out.refused = true;
      return false;
    }
    if (sniff == Sniff::kJson && buf.size > spill_above) {
      out.spilled = true;
      return true;
    }
  }
  std::memset(buf.data.get() + buf.size, 0, kPadding);
  return true;
}

Error ReadAllError(std::string_view name, const ReadOutcome& out) {
  if (out.refused) return ReadFailError(ReadFail::kRead, name);
  if (out.no_writer) {
    return Status::Error("cannot open '" + std::string(name) +
                         "': no process opened the FIFO for writing within " +
                         std::to_string(kFifoWriterWaitMs / 1000) + " seconds");
  }
  if (out.err == ENOMEM) return OutOfMemory("reading '" + std::string(name) + "'");
  return OpenError(name, out.err);
}

Result<tree::ProfileTree> ParseBuffer(const char* data, size_t size, size_t capacity,
                                      std::string_view name) {
  tree::ProfileTree tree;
  ReadFail fail = ReadFail::kRead;
  const Sniff sniff = SniffFormat(data, size);
  if (sniff == Sniff::kJson) {
    fail = ParseJsonInput(data, size, capacity, tree);
  } else if (sniff == Sniff::kMsgpack) {
    fail = ParseMsgpack(data, size, tree);
  }
  if (fail != ReadFail::kNone) return ReadFailError(fail, name);
  tree::DcheckPreOrder(tree);
  return tree;
}

// Streams the JSON document whose first bytes are `head` (held by `owner`, may be empty) and
// whose rest is read from `fd` up to end of file.
Result<tree::ProfileTree> StreamJson(std::string_view head, std::unique_ptr<char[]> owner, int fd,
                                     size_t hint, const std::string& name) {
  tree::ProfileTree tree;
  int read_errno = 0;
  const ReadFail fail = ReadJsonStream(head, std::move(owner), fd, hint, tree, read_errno);
  if (read_errno != 0) return OpenError(name, read_errno);
  if (fail != ReadFail::kNone) return ReadFailError(fail, name);
  tree::DcheckPreOrder(tree);
  return tree;
}

// Standard input, a pipe, a FIFO, a device: read whole into memory, or, for a JSON document
// over JsonStreamThreshold(), the bytes read so far and then the rest streamed.
Result<tree::ProfileTree> ReadSequential(int fd, size_t hint, bool fifo, const std::string& name) {
  Buffer buf;
  ReadOutcome outcome;
  if (!ReadAll(fd, hint, fifo, buf, outcome)) return ReadAllError(name, outcome);
  if (outcome.spilled) {
    // The writer is there by now: the streaming reader's plain read() may block again.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    const std::string_view head(buf.data.get(), buf.size);
    return StreamJson(head, std::move(buf.data), fd, hint, name);
  }
  return ParseBuffer(buf.data.get(), buf.size, buf.capacity, name);
}

bool StartsLikeMsgpack(int fd) {
  unsigned char first = 0;
  return ::pread(fd, &first, 1, 0) == 1 && IsMsgpackArrayMarker(first);
}

// A regular file of `size` bytes (at open, read from its start). JSON goes to its one entry,
// which picks the reader (json_reader.h); MessagePack is mapped, or read when it cannot be.
Result<tree::ProfileTree> ReadRegular(int fd, size_t size, const std::string& name) {
  if (StartsLikeMsgpack(fd)) {
    MappedFile map;
    if (map.Map(fd, size)) return ParseBuffer(map.data(), map.size(), map.capacity(), name);
    return ReadSequential(fd, size, /*fifo=*/false, name);
  }
  tree::ProfileTree tree;
  int read_errno = 0;
  const ReadFail fail = ReadJsonFile(fd, size, tree, read_errno);
  if (read_errno != 0) return OpenError(name, read_errno);
  if (fail != ReadFail::kNone) return ReadFailError(fail, name);
  tree::DcheckPreOrder(tree);
  return tree;
}

}  // namespace

std::string DisplayName(std::string_view path) {
  return path == "-" ? std::string("<stdin>") : std::string(path);
}

Status CheckInput(std::string_view path) {
  if (path == "-") return Status();
  const std::string p(path);
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) return OpenError(path, errno);
  if (S_ISDIR(st.st_mode)) return OpenError(path, EISDIR);
  if (::access(p.c_str(), R_OK) != 0) return OpenError(path, errno);
  return Status();
}

Result<tree::ProfileTree> ReadProfileFd(int fd, std::string_view name) {
  const std::string display(name);
  struct stat st {};
  if (::fstat(fd, &st) != 0) return OpenError(display, errno);
  if (S_ISDIR(st.st_mode)) return OpenError(display, EISDIR);
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    return ReadRegular(fd, static_cast<size_t>(st.st_size), display);
  }
  return ReadSequential(fd, 0, S_ISFIFO(st.st_mode), display);
}

Result<tree::ProfileTree> ReadProfileFile(std::string_view path) {
  const std::string name = DisplayName(path);
  if (path == "-") {
    // Standard input redirected from a file (`< F`, at its start) reads like the file F.
    struct stat st {};
    if (::fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        ::lseek(STDIN_FILENO, 0, SEEK_CUR) == 0)
      return ReadRegular(STDIN_FILENO, static_cast<size_t>(st.st_size), name);
    return ReadSequential(STDIN_FILENO, 0, /*fifo=*/false, name);
  }
  const std::string p(path);
  // O_NONBLOCK: opening a FIFO must not wait for its writer without a bound (ReadSome).
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return OpenError(name, errno);
  Result<tree::ProfileTree> tree = ReadProfileFd(fd, name);
  ::close(fd);
  return tree;
}

Result<tree::ProfileTree> ParseProfile(std::string_view bytes, std::string_view display_name) {
  std::unique_ptr<char[]> copy(new char[bytes.size() + kPadding]);
  if (!bytes.empty()) std::memcpy(copy.get(), bytes.data(), bytes.size());
  std::memset(copy.get() + bytes.size(), 0, kPadding);
  return ParseBuffer(copy.get(), bytes.size(), bytes.size() + kPadding, display_name);
}

Result<tree::ProfileTree> LoadProfile(std::string_view path) {
  return CatchOutOfMemory("reading '" + DisplayName(path) + "'",
                          [&]() -> Result<tree::ProfileTree> {
                            PROTON_ASSIGN_OR_RETURN(tree::ProfileTree tree, ReadProfileFile(path));
                            PROTON_RETURN_IF_ERROR(tree::PrepareProfile(tree, DisplayName(path)));
                            return tree;
                          });
}

}  // namespace proton::format
