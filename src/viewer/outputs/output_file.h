// Writing side outputs (--export, --html, --speedscope), with the one error of §11.8 for any
// failure from creating the file to closing it. A regular file (or a new one) is written
// under a temporary name in its folder and renamed onto FILE once complete, so an
// incomplete output (a full disk, a file size limit, running out of memory) never lies
// under FILE's name, and an existing FILE is replaced only by a complete one.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include "util/status.h"

namespace proton::viewer {

// Whether PATH is written in place rather than through a temporary file: a FIFO, a device,
// anything under /dev or /proc (renaming onto those would replace the name, not write to it).
bool IsWrittenInPlace(const std::string& path);

// "cannot write 'PATH': <strerror(error)>".
Error CannotWrite(const std::string& path, int error);

// One output being written. Destroying it without a successful Commit() (an error, an
// exception unwinding) closes it and removes the temporary file.
class OutputFile {
 public:
  // Regular or new files get a hidden temporary ".NAME.proton-XXXXXX" beside FILE (through
  // a symbolic link, beside its target), with FILE's mode, or 0666 less the umask. Anything
  // else (a FIFO, /dev/full, /dev/stdout, a path under /dev or /proc) is written in place;
  // a FIFO without a reader is waited for at most 10 seconds.
  static Result<OutputFile> Create(const std::string& path);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  OutputFile(const OutputFile&) = delete;
  ~OutputFile();

  std::FILE* get() const { return file_; }
  // The temporary file written in place of FILE, for writers that open it by name (SQLite);
  // "" when FILE is written in place (a FIFO, a device).
  const std::string& temp_path() const { return temp_; }
  // Flushes and closes; a write error seen earlier on it, or a failing close or rename, is
  // CannotWrite and leaves FILE as it was.
  Status Commit();

 private:
  OutputFile(std::string path, std::string target, std::string temp, std::FILE* file)
      : path_(std::move(path)), target_(std::move(target)), temp_(std::move(temp)), file_(file) {}
  void Discard();

  std::string path_;    // as given, for messages
  std::string target_;  // what the temporary file is renamed to
  std::string temp_;    // "" when written in place
  std::FILE* file_ = nullptr;
};

// Writes `text` through an OutputFile: any failure is "cannot write 'PATH': <strerror>".
Status WriteTextFile(const std::string& path, std::string_view text);

}  // namespace proton::viewer
