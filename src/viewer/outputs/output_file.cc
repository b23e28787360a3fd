// See output_file.h.
#include "viewer/outputs/output_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace proton::viewer {
namespace {

// How long a FIFO without a reader is waited for: open() would wait forever.
constexpr int kFifoReaderWaitMs = 10000;
constexpr int kFifoPollMs = 100;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Paths that name a device or another process's descriptor (/dev/stdout is a link into
// /proc): renaming a file onto them would replace the link, not write to what it names.
bool WrittenInPlace(const std::string& path) {
  if (StartsWith(path, "/dev/") || StartsWith(path, "/proc/")) return true;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

// Opens for writing without blocking on a FIFO that has no reader yet, then makes the
// descriptor blocking again. -1 with errno set on failure (ENXIO: no reader in time).
int OpenInPlace(const std::string& path) {
  for (int waited = 0;; waited += kFifoPollMs) {
    const int fd =
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0666);
    if (fd >= 0) {
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      return fd;
    }
    if (errno != ENXIO || waited >= kFifoReaderWaitMs) return -1;
    ::poll(nullptr, 0, kFifoPollMs);
  }
}

// The file a rename must replace: FILE itself, or what its symbolic link points at.
std::string RenameTarget(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char resolved[PATH_MAX];
  return ::realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

// The mode FILE keeps (an existing file's), or a new file's 0666 less the umask.
mode_t TargetMode(const std::string& target) {
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) return st.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

std::string TempTemplate(const std::string& target) {
  const size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  return dir + "." + base + ".proton-XXXXXX";
}

}  // namespace

bool IsWrittenInPlace(const std::string& path) { return WrittenInPlace(path); }

Error CannotWrite(const std::string& path, int error) {
  return Status::Error("cannot write '" + path + "': " + std::strerror(error));
}

Result<OutputFile> OutputFile::Create(const std::string& path) {
  if (WrittenInPlace(path)) {
    const int fd = OpenInPlace(path);
    if (fd < 0) {
      if (errno == ENXIO) {
        return Status::Error("cannot write '" + path +
                             "': no process opened the FIFO for reading within 10 seconds");
      }
      return CannotWrite(path, errno);
    }
    std::FILE* file = ::fdopen(fd, "wb");
    if (file == nullptr) {
      const int error = errno;
      ::close(fd);
      return CannotWrite(path, error);
    }
    return OutputFile(path, path, "", file);
  }
  std::string target = RenameTarget(path);
  // An existing FILE that may not be written stays an error, as when it was opened in place.
  if (::access(target.c_str(), F_OK) == 0 && ::access(target.c_str(), W_OK) != 0) {
    return CannotWrite(path, errno);
  }
  std::string temp = TempTemplate(target);
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return CannotWrite(path, errno);
  std::FILE* file = ::fdopen(fd, "wb");
  if (file == nullptr || ::fchmod(fd, TargetMode(target)) != 0) {
    const int error = errno;
    if (file != nullptr)
      std::fclose(file);
    else
      ::close(fd);
    ::unlink(temp.c_str());
    return CannotWrite(path, error);
  }
  return OutputFile(path, std::move(target), std::move(temp), file);
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      temp_(std::move(other.temp_)),
      file_(std::exchange(other.file_, nullptr)) {}

OutputFile::~OutputFile() { Discard(); }

void OutputFile::Discard() {
  if (file_ == nullptr) return;
  std::fclose(std::exchange(file_, nullptr));
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

Status OutputFile::Commit() {
  const int earlier = errno;  // a failed fwrite's, when the stream holds an error
  int error = 0;
  if (std::fflush(file_) != 0)
    error = errno;
  else if (std::ferror(file_) != 0)
    error = earlier != 0 ? earlier : EIO;
  if (std::fclose(std::exchange(file_, nullptr)) != 0 && error == 0) error = errno;
  if (error == 0 && !temp_.empty() && ::rename(temp_.c_str(), target_.c_str()) != 0) {
    error = errno;
  }
  if (error == 0) return Status();
  if (!temp_.empty()) ::unlink(temp_.c_str());
  return CannotWrite(path_, error);
}

Status WriteTextFile(const std::string& path, std::string_view text) {
  PROTON_ASSIGN_OR_RETURN(OutputFile file, OutputFile::Create(path));
  std::fwrite(text.data(), 1, text.size(), file.get());
  return file.Commit();
}

}  // namespace proton::viewer
