// See batch_insert.h.
#include "viewer/sql/batch_insert.h"

#include <algorithm>
#include <utility>

namespace proton::viewer {
namespace {

constexpr size_t kMaxRowsPerStatement = 64;
// SQLite's default limit of parameters per statement is 32,766.
constexpr size_t kMaxParameters = 32000;

}  // namespace

BatchInsert::BatchInsert(SqlDatabase& db, std::string table, int columns)
    : db_(db),
      table_(std::move(table)),
      columns_(columns),
      rows_per_statement_(std::clamp<size_t>(kMaxParameters / static_cast<size_t>(columns), 1,
                                             kMaxRowsPerStatement)) {}

Result<SqlStatement*> BatchInsert::StatementFor(size_t rows) {
  auto it = statements_.find(rows);
  if (it != statements_.end()) return &it->second;
  std::string row = "(";
  for (int c = 0; c < columns_; ++c) row += c == 0 ? "?" : ",?";
  row += ")";
  std::string sql = "INSERT INTO " + table_ + " VALUES ";
  for (size_t r = 0; r < rows; ++r) sql += (r == 0 ? "" : ",") + row;
  PROTON_ASSIGN_OR_RETURN(SqlStatement statement, db_.Prepare(sql));
  return &statements_.emplace(rows, std::move(statement)).first->second;
}

Status BatchInsert::Start(size_t rows) {
  remaining_ = rows;
  filled_ = 0;
  rows_in_statement_ = 0;
  return Status();
}

Status BatchInsert::MakeRoom() {
  if (filled_ < rows_in_statement_) return Status();
  // The previous statement ran (or none was started): take one for the next rows.
  const size_t rows = std::min(rows_per_statement_, remaining_);
  if (rows == 0) return Status::Error("internal error: more rows than announced");
  PROTON_ASSIGN_OR_RETURN(statement_, StatementFor(rows));
  statement_->ClearBindings();
  rows_in_statement_ = rows;
  filled_ = 0;
  return Status();
}

Status BatchInsert::Flush() {
  remaining_ -= filled_;
  PROTON_RETURN_IF_ERROR(statement_->Run());
  return Status();
}

}  // namespace proton::viewer
