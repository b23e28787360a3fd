// Trace FILEs in the profile database (formats.md §8, viewer.md §11.13): which FILEs are
// traces, and one trace's files row and events rows, streamed from the trace reader's
// visitor into batched inserts, so memory does not grow with the events.
#pragma once

#include <cstdint>
#include <string>

#include "util/status.h"
#include "viewer/sql/sqlite_db.h"

namespace proton::viewer {

// Whether `path` is a trace (Chrome JSON whose start reads as one, or Perfetto protobuf),
// told from its content. Standard input and pipes are not sniffed: they are read as tree
// profiles (whose reader names a trace as such).
bool IsTraceFile(const std::string& path);

// Reads the trace at `path` and appends its row of files (at `file_id`) and its events.
// The reader's errors are returned as they are (`'F': ...`).
Status WriteTraceFile(SqlDatabase& db, int64_t file_id, const std::string& path);

}  // namespace proton::viewer
