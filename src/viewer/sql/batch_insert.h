// Inserting many rows fast: one INSERT statement that takes up to 64 rows at once, prepared
// once per row count, reset and refilled. SQLite then runs its insert program once per 64
// rows instead of once per row, which about halves the cost of a row (bench/viewer/RESULTS.md).
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "util/status.h"
#include "viewer/sql/sqlite_db.h"

namespace proton::viewer {

class BatchInsert {
 public:
  // Rows of `columns` values into `table`: a table name (every column, in table order), or
  // a name with its column list, "events (file_id, kind, ...)".
  BatchInsert(SqlDatabase& db, std::string table, int columns);

  // Starts `rows` rows; Add is then called exactly that many times.
  Status Start(size_t rows);
  // Binds the next row: bind(statement, first) binds its values at parameters first ..
  // first + columns - 1; parameters left unbound are NULL.
  template <typename Bind>
  Status Add(Bind&& bind) {
    PROTON_RETURN_IF_ERROR(MakeRoom());
    bind(*statement_, static_cast<int>(filled_) * columns_ + 1);
    ++filled_;
    return filled_ == rows_in_statement_ ? Flush() : Status();
  }

 private:
  Status MakeRoom();  // after a full statement ran: the statement for the next rows
  Status Flush();     // runs the filled statement
  Result<SqlStatement*> StatementFor(size_t rows);

  SqlDatabase& db_;
  std::string table_;
  int columns_;
  size_t rows_per_statement_;
  std::map<size_t, SqlStatement> statements_;  // by row count
  SqlStatement* statement_ = nullptr;
  size_t rows_in_statement_ = 0;
  size_t filled_ = 0;
  size_t remaining_ = 0;  // rows of Start not yet in a run statement
};

}  // namespace proton::viewer
