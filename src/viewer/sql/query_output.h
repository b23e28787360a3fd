// The result of an --sql query (viewer.md §11.13): an aligned table on standard output, or
// with --export a CSV or JSON-lines file of the same rows, written like §11.8's tables.
#pragma once

#include <string>

#include "util/status.h"
#include "viewer/outputs/output_buffer.h"
#include "viewer/sql/sqlite_db.h"

namespace proton::viewer {

// Steps `query` to its end and prints its rows under a header and a rule of dashes, columns
// two spaces apart: numbers right-aligned, text left-aligned with control characters
// escaped, NULL empty. The rows are held until the widths are known.
Status PrintResultTable(SqlStatement& query, OutputBuffer& out);

// Steps `query` to its end, streaming its rows to `path` as CSV (a header of the column
// names) or JSON lines ({"column": value}) by the suffix; NULL is an empty field or null,
// numbers keep every digit (shortest round trip), a BLOB is its hexadecimal text.
Status WriteResultFile(SqlStatement& query, const std::string& path);

}  // namespace proton::viewer
