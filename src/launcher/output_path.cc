// See output_path.h.
#include "launcher/output_path.h"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/printable.h"

namespace proton::launcher {

namespace {

// "/a/b/" for "/a/b/x"; "/" for "/x".
std::string FolderOf(const std::string& absolute_base) {
  const size_t slash = absolute_base.rfind('/');
  return slash == std::string::npos ? std::string("./") : absolute_base.substr(0, slash + 1);
}

// The folder itself, or the nearest ancestor that exists (the core creates the rest).
std::string NearestExisting(std::string folder, struct stat& st) {
  while (stat(folder.c_str(), &st) != 0 && errno == ENOENT && folder.size() > 1) {
    folder.pop_back();  // the trailing '/'
    folder.erase(folder.rfind('/') + 1);
  }
  return folder;
}

// No block left to write a profile into: the blocks free to this user (root may use the
// reserved ones). Pseudo file systems report no blocks at all and are not judged.
bool Full(const std::string& folder) {
  struct statvfs fs {};
  if (statvfs(folder.c_str(), &fs) != 0 || fs.f_blocks == 0) return false;
  return (geteuid() == 0 ? fs.f_bfree : fs.f_bavail) == 0;
}

std::string Message(const std::string& folder, int error) {
  return "cannot write profiles to " + PrintableText(folder) + ": " + std::strerror(error);
}

}  // namespace

std::optional<std::string> OutputPathError(const std::string& absolute_base) {
  if (absolute_base.find('\n') != std::string::npos) {
    return "profile paths cannot hold a newline: " + PrintableText(absolute_base) +
           " (choose another name with -n)";
  }
  const std::string folder = FolderOf(absolute_base);
  struct stat st {};
  const std::string existing = NearestExisting(folder, st);
  if (stat(existing.c_str(), &st) != 0) return Message(folder, errno);
  if (!S_ISDIR(st.st_mode)) return Message(folder, ENOTDIR);
  if (access(existing.c_str(), W_OK | X_OK) != 0) return Message(folder, errno);
  return Full(existing) ? std::optional<std::string>(Message(folder, ENOSPC)) : std::nullopt;
}

}  // namespace proton::launcher
