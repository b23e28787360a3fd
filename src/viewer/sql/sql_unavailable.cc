// sql_command.h for a viewer built without SQLite (cmake/ProtonDeps.cmake found no
// libsqlite3-dev): every request is the one error that says so.
#include "viewer/sql/sql_command.h"

namespace proton::viewer {

bool SqliteAvailable() { return false; }

Status WriteSqliteExport(const std::string&, const std::vector<std::string>&,
                         const std::vector<std::string>&) {
  return SqliteUnavailable("--export FILE.sqlite");
}

Status RunSql(const SqlRequest&, OutputBuffer&) { return SqliteUnavailable("--sql"); }

}  // namespace proton::viewer
