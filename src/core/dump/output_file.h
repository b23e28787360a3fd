// Where a profile goes: a file written atomically (temporary file in the same directory, then
// rename; missing parent directories are created, D4), or standard output for "" and "-".
// Writers stream into it in chunks, so a 1M-node profile never sits in memory as one string.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"

namespace proton {

class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // removes the temporary file unless committed

  // `path` "-" = standard output. Creates parent directories and the temporary file.
  Status Open(const std::string& path);
  Status Write(std::string_view bytes);
  // Renames the temporary file onto the path (no-op for stdout).
  Status Commit();

 private:
  std::string path_;
  std::string temp_;
  int fd_ = -1;
  bool stdout_ = false;
  Status error_;  // the first write error, reported by Commit
};

Status WriteFileAtomic(const std::string& path, std::string_view bytes);
Status WriteStdout(std::string_view bytes);

}  // namespace proton
