// Where a profile goes: a file written atomically (profiler.md §1.2, §2.10), or standard output
// for "" and "-". Missing parent directories are created (D4). Writers stream into it in
// chunks, so a 1M-node profile never sits in memory as one string.
//
// The bytes go to an unnamed file in the target directory (O_TMPFILE) where the file system
// supports it, else to a hidden `.proton-<pid>-<n>.tmp` there. Commit gives the unnamed file
// that hidden name and renames it onto the target. So a process killed mid-write leaves nothing
// (or, at worst, a `.proton-*.tmp` that no reader takes for a profile), the target is the old
// file or the new one, and the temporary name fits wherever the final name fits.
// Usable from any thread; one object is used by one thread at a time.
#pragma once

#include <functional>
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
  // The first write error, if any (a producer may stop early on it).
  const Status& error() const { return error_; }

 private:
  Status OpenNamedTemp();
  Status LinkUnnamed();

  std::string path_;
  std::string base_;  // the target's file name inside dir_fd_
  std::string temp_;  // the hidden temporary name; empty while the file is unnamed
  int dir_fd_ = -1;
  int fd_ = -1;
  bool stdout_ = false;
  bool unnamed_ = false;  // O_TMPFILE: no name until Commit
  Status error_;          // the first write error, reported by Commit
};

// Receives text in chunks (writers' WriteOptions::chunk_sink has this type). Returns false
// when it can take no more (a write failed): the producer stops.
using ChunkSink = std::function<bool(std::string_view)>;

// Opens `path`, runs `produce` with a sink into the file, then commits. The producer stops at
// the first write error (the sink returns false), which is the result. Running out of memory
// inside `produce` (std::bad_alloc) becomes an error too. On every error the temporary file is
// removed and the target keeps its previous content.
Status WriteStreamed(const std::string& path,
                     const std::function<Status(const ChunkSink&)>& produce);

Status WriteFileAtomic(const std::string& path, std::string_view bytes);
Status WriteStdout(std::string_view bytes);

}  // namespace proton
