// See output_file.h.
#include "viewer/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace proton::viewer {

Error CannotWrite(const std::string& path, int error) {
  return Status::Error("cannot write '" + path + "': " + std::strerror(error));
}

Result<std::FILE*> OpenOutputFile(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return CannotWrite(path, errno);
  return file;
}

Status CloseOutputFile(std::FILE* file, const std::string& path) {
  const bool failed = std::ferror(file) != 0;
  const int error = errno;
  if (std::fclose(file) != 0 || failed) return CannotWrite(path, failed ? error : errno);
  return Status();
}

Status WriteTextFile(const std::string& path, std::string_view text) {
  PROTON_ASSIGN_OR_RETURN(std::FILE * file, OpenOutputFile(path));
  std::fwrite(text.data(), 1, text.size(), file);
  return CloseOutputFile(file, path);
}

}  // namespace proton::viewer
