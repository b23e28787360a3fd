// See output_file.h.
#include "viewer/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace proton::viewer {

Status WriteTextFile(const std::string& path, std::string_view text) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    return Status::Error("cannot write '" + path + "': " + std::strerror(errno));
  }
  const size_t written = std::fwrite(text.data(), 1, text.size(), file);
  int error = written == text.size() ? 0 : errno;
  if (std::fclose(file) != 0 && error == 0) error = errno;
  if (error != 0) return Status::Error("cannot write '" + path + "': " + std::strerror(error));
  return Status();
}

}  // namespace proton::viewer
