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

}  // namespace

Status WriteFileAtomic(const std::string& path, std::string_view bytes) {
  namespace fs = std::filesystem;
  fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
    if (ec) {
      return Status::Error("cannot create directory " + target.parent_path().string() + ": " +
                               ec.message(),
                           ErrorKind::kRuntime);
    }
  }
  static std::atomic<unsigned> counter{0};
  std::string temp = path + ".tmp" + std::to_string(::getpid()) + "_" +
                     std::to_string(counter.fetch_add(1));
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    return Status::Error("cannot write " + path + ": " + std::strerror(errno),
                         ErrorKind::kRuntime);
  }
  Status st = WriteAll(fd, bytes);
  if (::close(fd) != 0 && st.ok()) st = Status::Error(std::strerror(errno), ErrorKind::kRuntime);
  if (st.ok() && std::rename(temp.c_str(), path.c_str()) != 0) {
    st = Status::Error(std::strerror(errno), ErrorKind::kRuntime);
  }
  if (!st.ok()) {
    ::unlink(temp.c_str());
    return Status::Error("cannot write " + path + ": " + st.message(), ErrorKind::kRuntime);
  }
  return Status();
}

Status WriteStdout(std::string_view bytes) {
  std::fflush(stdout);
  Status st = WriteAll(STDOUT_FILENO, bytes);
  if (!st.ok()) return Status::Error("cannot write to stdout: " + st.message(), ErrorKind::kRuntime);
  return Status();
}

}  // namespace proton
