// Output files; see output_file.h.
#include "core/dump/output_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>

namespace proton {
namespace {

Status WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::Error(std::strerror(errno), ErrorKind::kRuntime);
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status();
}

Error CannotWrite(const std::string& path, const std::string& why) {
  return Status::Error("cannot write " + path + ": " + why, ErrorKind::kRuntime);
}

// A hidden name that no reader takes for a profile (it ends in .tmp, not in a format's
// suffix) and that is short whatever the target's name, so it fits where the target fits.
std::string TempName() {
  static std::atomic<unsigned> counter{0};
  return ".proton-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)) +
         ".tmp";
}

std::string ProcFdPath(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

}  // namespace

OutputFile::~OutputFile() {
  if (fd_ >= 0 && !stdout_) ::close(fd_);
  if (!temp_.empty()) ::unlinkat(dir_fd_, temp_.c_str(), 0);
  if (dir_fd_ >= 0) ::close(dir_fd_);
}

Status OutputFile::Open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    std::fflush(stdout);
    stdout_ = true;
    fd_ = STDOUT_FILENO;
    return Status();
  }
  namespace fs = std::filesystem;
  fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
    if (ec) return CannotWrite(path, "cannot create its directory: " + ec.message());
  }
  base_ = target.filename().string();
  if (base_.empty() || base_ == "." || base_ == "..") return CannotWrite(path, "not a file name");
  const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  dir_fd_ = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd_ < 0) return CannotWrite(path, std::strerror(errno));
  // A name the directory cannot hold fails now, before any byte is produced.
  long name_max = ::fpathconf(dir_fd_, _PC_NAME_MAX);
  if (name_max > 0 && base_.size() > static_cast<size_t>(name_max)) {
    return CannotWrite(path, std::strerror(ENAMETOOLONG));
  }
  fd_ = ::openat(dir_fd_, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  // Commit names the unnamed file through /proc; without /proc, use a named file from the start.
  if (fd_ >= 0 && ::access(ProcFdPath(fd_).c_str(), F_OK) == 0) {
    unnamed_ = true;
    return Status();
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  return OpenNamedTemp();
}

Status OutputFile::OpenNamedTemp() {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = TempName();
    fd_ = ::openat(dir_fd_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) {
      temp_ = std::move(name);
      return Status();
    }
    if (errno != EEXIST) break;  // a stale file of an earlier process with our pid: next name
  }
  return CannotWrite(path_, std::strerror(errno));
}

Status OutputFile::LinkUnnamed() {
  const std::string source = ProcFdPath(fd_);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = TempName();
    if (::linkat(AT_FDCWD, source.c_str(), dir_fd_, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      temp_ = std::move(name);
      unnamed_ = false;
      return Status();
    }
    if (errno != EEXIST) break;
  }
  return CannotWrite(path_, std::strerror(errno));
}

Status OutputFile::Write(std::string_view bytes) {
  if (!error_.ok() || fd_ < 0) return error_;
  Status st = WriteAll(fd_, bytes);
  if (!st.ok())
    error_ = stdout_ ? Status::Error("cannot write to stdout: " + st.message(), ErrorKind::kRuntime)
                     : CannotWrite(path_, st.message());
  return error_;
}

Status OutputFile::Commit() {
  if (stdout_ || fd_ < 0) return error_;
  if (error_.ok() && unnamed_) error_ = LinkUnnamed();
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && error_.ok()) error_ = CannotWrite(path_, std::strerror(errno));
  if (error_.ok() && ::renameat(dir_fd_, temp_.c_str(), dir_fd_, base_.c_str()) != 0) {
    error_ = CannotWrite(path_, std::strerror(errno));
  }
  if (error_.ok()) temp_.clear();  // renamed: nothing left to remove
  return error_;
}

Status WriteStreamed(const std::string& path,
                     const std::function<Status(const ChunkSink&)>& produce) {
  OutputFile file;
  PROTON_RETURN_IF_ERROR(file.Open(path));
  // The first write error refuses every later chunk, so the producer stops at once instead
  // of formatting the rest of the profile for nothing; that error is the result.
  ChunkSink sink = [&file](std::string_view chunk) { return file.Write(chunk).ok(); };
  try {
    Status produced = produce(sink);
    PROTON_RETURN_IF_ERROR(file.error());
    PROTON_RETURN_IF_ERROR(produced);
  } catch (const std::bad_alloc&) {
    return CannotWrite(path == "-" ? "to stdout" : path, "out of memory");
  }
  return file.Commit();
}

Status WriteFileAtomic(const std::string& path, std::string_view bytes) {
  OutputFile file;
  PROTON_RETURN_IF_ERROR(file.Open(path));
  PROTON_RETURN_IF_ERROR(file.Write(bytes));
  return file.Commit();
}

Status WriteStdout(std::string_view bytes) { return WriteFileAtomic("-", bytes); }

}  // namespace proton
