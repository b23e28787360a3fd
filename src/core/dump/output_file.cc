// Output files; see output_file.h.
#include "core/dump/output_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

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

Status CannotWrite(const std::string& path, const std::string& why) {
  return Status::Error("cannot write " + path + ": " + why, ErrorKind::kRuntime);
}

}  // namespace

OutputFile::~OutputFile() {
  if (fd_ >= 0 && !stdout_) {
    ::close(fd_);
    ::unlink(temp_.c_str());
  }
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
  static std::atomic<unsigned> counter{0};
  temp_ = path + ".tmp" + std::to_string(::getpid()) + "_" + std::to_string(counter.fetch_add(1));
  fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) return CannotWrite(path, std::strerror(errno));
  return Status();
}

Status OutputFile::Write(std::string_view bytes) {
  if (!error_.ok() || fd_ < 0) return error_;
  Status st = WriteAll(fd_, bytes);
  if (!st.ok()) error_ = stdout_ ? Status::Error("cannot write to stdout: " + st.message(),
                                                 ErrorKind::kRuntime)
                                 : CannotWrite(path_, st.message());
  return error_;
}

Status OutputFile::Commit() {
  if (stdout_ || fd_ < 0) return error_;
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && error_.ok()) error_ = CannotWrite(path_, std::strerror(errno));
  if (error_.ok() && std::rename(temp_.c_str(), path_.c_str()) != 0) {
    error_ = CannotWrite(path_, std::strerror(errno));
  }
  if (!error_.ok()) ::unlink(temp_.c_str());
  return error_;
}

Status WriteFileAtomic(const std::string& path, std::string_view bytes) {
  OutputFile file;
  PROTON_RETURN_IF_ERROR(file.Open(path));
  PROTON_RETURN_IF_ERROR(file.Write(bytes));
  return file.Commit();
}

Status WriteStdout(std::string_view bytes) { return WriteFileAtomic("-", bytes); }

}  // namespace proton
