// The profile database of some FILEs (formats.md §8, viewer.md §11.13), built by the
// command's --export FILE.sqlite and --sql, and by proton.viewer.to_sqlite.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/sql/sqlite_db.h"

namespace proton::viewer {

// Settings for a database written once, start to end, in one transaction: no rollback
// journal, no syncing (a failed write leaves a temporary file that is removed; nothing reads
// the database before it is complete).
Status ConfigureBulkWrite(SqlDatabase& db);

// Reads `files` (loaded a few at a time, merged into the database in FILE order) and writes
// their database into the empty `db`. Every file is checked as --merge checks it (§11.11:
// readable, a tree profile, the same context and devices); `items` (-m) are computed per
// file and stored as columns. A file without profile data is a file holding no frame.
Status BuildProfileDb(SqlDatabase& db, const std::vector<std::string>& files,
                      const std::vector<std::string>& items);

// --export FILE.sqlite: the database of `files` written to `path`, replacing it only once
// complete (a hidden temporary file in its folder, renamed) and `then` (when given: --sql's
// query on it) succeeded. A path that is not a regular file (a FIFO, a device) is refused:
// SQLite needs to seek.
Status ExportSqlite(const std::string& path, const std::vector<std::string>& files,
                    const std::vector<std::string>& items,
                    const std::function<Status(SqlDatabase&)>& then = nullptr);

}  // namespace proton::viewer
