// See sql_command.h.
#include "viewer/sql/sql_command.h"

#include <optional>

#include "viewer/common/quoted.h"
#include "viewer/outputs/output_formats.h"
#include "viewer/sql/named_queries.h"
#include "viewer/sql/profile_db.h"
#include "viewer/sql/query_output.h"
#include "viewer/sql/sql_schema.h"
#include "viewer/sql/value_columns.h"

namespace proton::viewer {
namespace {

void PrintNamedQueries(OutputBuffer& out) {
  for (const NamedQuery& q : NamedQueries()) {
    out.Write(q.name);
    out.Write(": ");
    out.Write(q.description);
    out.Write("\n    ");
    for (const char c : q.sql)
      out.Write(c == '\n' ? std::string_view("\n    ") : std::string_view(&c, 1));
    out.Write("\n\n");
  }
}

bool IsBareName(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    const bool word =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!word) return false;
  }
  return true;
}

// A named query's SQL, or the text itself; a bare word that names no query is an error
// rather than SQLite's "syntax error".
Result<std::string> ResolveQuery(const std::string& query) {
  if (const NamedQuery* named = FindNamedQuery(query)) return std::string(named->sql);
  if (IsBareName(query)) {
    return Status::Error("unknown named query " + Quoted(query) +
                         " (proton-viewer --sql list shows them)");
  }
  return query;
}

// Whether SQLite refused `status`'s query for its text, not for the names it uses.
bool IsSyntaxError(const Status& status) {
  const std::string_view m = status.message();
  return m.find("syntax error") != std::string_view::npos ||
         m.find("incomplete input") != std::string_view::npos ||
         m.find("unrecognized token") != std::string_view::npos;
}

// The one read-only statement of `sql`.
Result<SqlStatement> PrepareQuery(SqlDatabase& db, const std::string& sql) {
  std::string_view tail;
  PROTON_ASSIGN_OR_RETURN(SqlStatement query, db.Prepare(sql, &tail));
  if (query.empty()) return Status::Error("SQL: the query has no statement");
  PROTON_ASSIGN_OR_RETURN(const SqlStatement more, db.Prepare(tail));
  if (!more.empty()) return Status::Error("--sql runs one statement, and the query has more");
  if (sqlite3_stmt_readonly(query.get()) == 0) {
    return Status::Error("--sql runs queries only, and this statement would change the database");
  }
  return query;
}

// Before reading any FILE: a query whose text SQLite cannot parse is refused at once, on an
// empty database of the same schema (one whose metric columns are the common ones, so a
// missing metric column is only found once the FILEs are read).
Status PrecheckQuery(const std::string& sql) {
  PROTON_ASSIGN_OR_RETURN(SqlDatabase db, SqlDatabase::Open(":memory:"));
  ValueColumns columns;
  PROTON_RETURN_IF_ERROR(CreateTables(db));
  PROTON_RETURN_IF_ERROR(columns.AddCommon(db));
  PROTON_RETURN_IF_ERROR(CreateViews(db, columns.Names()));
  const Result<SqlStatement> prepared = PrepareQuery(db, sql);
  if (!prepared.ok() && IsSyntaxError(prepared.status())) return prepared.status();
  return Status();
}

// The query's rows: printed, or written to the table file of --export.
Status RunQuery(SqlDatabase& db, const std::string& sql, const SqlRequest& request,
                OutputBuffer& out) {
  PROTON_ASSIGN_OR_RETURN(SqlStatement query, PrepareQuery(db, sql));
  const std::optional<OutputFormat> format = ExportFormatOf(request.export_path);
  if (format && *format != OutputFormat::kSqlite) {
    return WriteResultFile(query, request.export_path);
  }
  return PrintResultTable(query, out);
}

}  // namespace

bool SqliteAvailable() { return true; }

Status WriteSqliteExport(const std::string& path, const std::vector<std::string>& files,
                         const std::vector<std::string>& items) {
  return ExportSqlite(path, files, items);
}

Status RunSql(const SqlRequest& request, OutputBuffer& out) {
  if (request.query == "list") {
    PrintNamedQueries(out);
    return Status();
  }
  PROTON_ASSIGN_OR_RETURN(const std::string sql, ResolveQuery(request.query));
  PROTON_RETURN_IF_ERROR(PrecheckQuery(sql));
  if (ExportFormatOf(request.export_path) == OutputFormat::kSqlite) {
    // The database goes to FILE, the query runs on it, and FILE is replaced once both
    // succeeded.
    return ExportSqlite(request.export_path, request.files, request.items,
                        [&](SqlDatabase& db) { return RunQuery(db, sql, request, out); });
  }
  PROTON_ASSIGN_OR_RETURN(SqlDatabase db, SqlDatabase::Open(":memory:"));
  PROTON_RETURN_IF_ERROR(db.Exec("PRAGMA journal_mode = OFF;"));
  PROTON_RETURN_IF_ERROR(BuildProfileDb(db, request.files, request.items));
  return RunQuery(db, sql, request, out);
}

}  // namespace proton::viewer
