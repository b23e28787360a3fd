// See sqlite_db.h.
#include "viewer/sql/sqlite_db.h"

#include <limits>

#include "util/printable.h"

namespace proton::viewer {

SqlStatement& SqlStatement::operator=(SqlStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = other.db_;
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

Status SqlStatement::Run() {
  const int rc = sqlite3_step(stmt_);
  sqlite3_reset(stmt_);
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return Status();
  return SqliteError(db_);
}

Result<bool> SqlStatement::Step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return SqliteError(db_);
}

Result<SqlDatabase> SqlDatabase::Open(const std::string& path) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  SqlDatabase owner(db);  // closes even a half-opened handle
  if (rc != SQLITE_OK) {
    return Status::Error("cannot write '" + path +
                         "': " + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
  }
  sqlite3_extended_result_codes(db, 1);
  return owner;
}

Status SqlDatabase::Exec(const std::string& sql) {
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK) return Status();
  return LastError();
}

Result<SqlStatement> SqlDatabase::Prepare(std::string_view sql, std::string_view* tail) {
  if (sql.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return Status::Error("SQL: the query is too long");
  }
  sqlite3_stmt* stmt = nullptr;
  const char* rest = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt, &rest);
  SqlStatement owner(db_, stmt);
  if (rc != SQLITE_OK) return LastError();
  if (tail != nullptr) *tail = sql.substr(static_cast<size_t>(rest - sql.data()));
  return owner;
}

Status SqlDatabase::Close() {
  if (db_ == nullptr) return Status();
  if (sqlite3_close(db_) == SQLITE_OK) {
    db_ = nullptr;
    return Status();
  }
  Error error = LastError();
  sqlite3_close_v2(std::exchange(db_, nullptr));
  return error;
}

Error SqlDatabase::LastError() const { return SqliteError(db_); }

Error SqliteError(sqlite3* db) {
  if (sqlite3_errcode(db) == SQLITE_NOMEM) {
    return Error("out of memory in SQLite", ErrorKind::kOutOfMemory);
  }
  // SQLite quotes the query's text near an error, which may hold line breaks: the message
  // stays one line (§9).
  return Error(std::string(kSqlErrorPrefix) + PrintableText(sqlite3_errmsg(db)));
}

std::string_view SqliteMessage(const Status& status) {
  std::string_view message = status.message();
  if (message.substr(0, kSqlErrorPrefix.size()) == kSqlErrorPrefix) {
    message.remove_prefix(kSqlErrorPrefix.size());
  }
  return message;
}

std::string QuoteSqlName(std::string_view name) {
  std::string quoted = "\"";
  for (const char c : name) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string QuoteSqlText(std::string_view text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + '\'';
}

}  // namespace proton::viewer
