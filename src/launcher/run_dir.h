// The per-run directory (PROTON_CLI_RUN_DIR, profiler.md §2.9): created under $TMPDIR before
// the target starts, read after it ended (which files the processes chose), then deleted.
#pragma once

#include <string>
#include <vector>

#include "util/status.h"

namespace proton::launcher {

struct RunDirectory {
  std::string path;
  std::string run_id;
};

// Creates "<$TMPDIR or /tmp>/proton-run.<pid>.XXXXXX" (mode 0700).
Result<RunDirectory> CreateRunDirectory(const std::string& tmpdir);

// Deletes the directory and the files in it (it never holds subdirectories).
void RemoveRunDirectory(const std::string& path);

// One line of the "files" record: which process chose which output file.
struct FileRecord {
  std::string kind;  // "root", "rank" or "pid"
  long pid = 0;
  std::string path;
};

// Parses the record text; malformed lines are skipped.
std::vector<FileRecord> ParseFileRecords(const std::string& text);

// Reads "<dir>/files"; empty when there is none.
std::vector<FileRecord> ReadFileRecords(const std::string& dir);

}  // namespace proton::launcher
