// What the command line and the Python API ask of SQLite (viewer.md §11.13): the database of
// some FILEs (--export FILE.sqlite, proton.viewer.to_sqlite) and a query over it (--sql).
// This header holds no SQLite type, so that it is the same whether the viewer was built with
// SQLite (sql_command.cc) or without it (sql_unavailable.cc, whose functions say so).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"
#include "viewer/outputs/output_buffer.h"

namespace proton::viewer {

// Whether this build has SQLite.
bool SqliteAvailable();

// The error of asking for `what` ("--sql", "--export FILE.sqlite") without SQLite.
inline Error SqliteUnavailable(std::string_view what) {
  return Status::Error(std::string(what) +
                       " needs SQLite, and this proton-viewer was built without it "
                       "(Debian: apt-get install libsqlite3-dev, then build again)");
}

// --export FILE.sqlite: the database of `files` (with the -m `items` as columns), replacing
// FILE only once complete.
Status WriteSqliteExport(const std::string& path, const std::vector<std::string>& files,
                         const std::vector<std::string>& items);

struct SqlRequest {
  std::string query;               // --sql's value: SQL, a named query, or "list"
  std::vector<std::string> files;  // FILE...
  std::vector<std::string> items;  // -m, as columns of frame_values
  std::string export_path;         // --export: FILE.sqlite (the database, queried there),
                                   // FILE.csv or FILE.jsonl (the result), or ""
};

// --sql: "list" prints the named queries; otherwise the query runs on the database of the
// FILEs (in memory, or FILE.sqlite) and its rows are printed to `out` as an aligned table,
// or written to the --export table file. One read-only statement; SQLite's errors are
// "SQL: <message>".
Status RunSql(const SqlRequest& request, OutputBuffer& out);

}  // namespace proton::viewer
