// A thin owner of an SQLite connection and its prepared statements, with every failure a
// Status carrying SQLite's own message (viewer.md §11.13: "SQL: near \"SELEC\": syntax error").
// Nothing else of the viewer calls the SQLite C API for its lifetime management.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "util/status.h"

namespace proton::viewer {

// One prepared statement; finalized when destroyed.
class SqlStatement {
 public:
  SqlStatement() = default;
  SqlStatement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  SqlStatement(SqlStatement&& other) noexcept
      : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}
  SqlStatement& operator=(SqlStatement&& other) noexcept;
  SqlStatement(const SqlStatement&) = delete;
  SqlStatement& operator=(const SqlStatement&) = delete;
  ~SqlStatement() { sqlite3_finalize(stmt_); }

  sqlite3_stmt* get() const { return stmt_; }
  bool empty() const { return stmt_ == nullptr; }

  // Parameters count from 1, as in SQLite. Text is copied by SQLite only when the step needs
  // it past the call (SQLITE_TRANSIENT would copy every time): callers keep it alive until
  // the next Step.
  void BindInt(int index, int64_t v) { sqlite3_bind_int64(stmt_, index, v); }
  void BindDouble(int index, double v) { sqlite3_bind_double(stmt_, index, v); }
  void BindText(int index, std::string_view v) {
    sqlite3_bind_text64(stmt_, index, v.data(), v.size(), SQLITE_STATIC, SQLITE_UTF8);
  }
  // Text SQLite copies at once, for a buffer the caller reuses before the next Step.
  void BindTextCopy(int index, std::string_view v) {
    sqlite3_bind_text64(stmt_, index, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  }
  void BindNull(int index) { sqlite3_bind_null(stmt_, index); }
  void ClearBindings() { sqlite3_clear_bindings(stmt_); }

  // Runs a statement that returns no rows, then resets it for the next use.
  Status Run();
  // One step of a query: true with a row, false when done; errors as Status.
  Result<bool> Step();

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

// One connection; closed when destroyed.
class SqlDatabase {
 public:
  // ":memory:" is a database in memory.
  static Result<SqlDatabase> Open(const std::string& path);
  SqlDatabase(SqlDatabase&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}
  SqlDatabase& operator=(SqlDatabase&&) = delete;
  SqlDatabase(const SqlDatabase&) = delete;
  SqlDatabase& operator=(const SqlDatabase&) = delete;
  ~SqlDatabase() { sqlite3_close_v2(db_); }

  sqlite3* get() const { return db_; }
  // Runs statements that return no rows (";"-separated).
  Status Exec(const std::string& sql);
  // Prepares the first statement of `sql`; `tail` (when given) gets what follows it.
  Result<SqlStatement> Prepare(std::string_view sql, std::string_view* tail = nullptr);
  // Closes the connection, reporting what closing found (a write that failed late).
  Status Close();

  // "SQL: <SQLite's message>".
  Error LastError() const;

 private:
  explicit SqlDatabase(sqlite3* db) : db_(db) {}
  sqlite3* db_ = nullptr;
};

// What starts the message of every error SQLite reports.
inline constexpr std::string_view kSqlErrorPrefix = "SQL: ";
// The last error of `db` as "SQL: <SQLite's message>" (out of memory: kOutOfMemory).
Error SqliteError(sqlite3* db);
// The message of `status` without kSqlErrorPrefix.
std::string_view SqliteMessage(const Status& status);

// A name inside double quotes, quotes doubled: any metric name is a valid column name.
std::string QuoteSqlName(std::string_view name);
// A string literal inside single quotes, quotes doubled.
std::string QuoteSqlText(std::string_view text);

}  // namespace proton::viewer
