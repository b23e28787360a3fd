// See query_output.h.
#include "viewer/sql/query_output.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "util/printable.h"
#include "viewer/common/json_text.h"
#include "viewer/outputs/export.h"
#include "viewer/outputs/output_file.h"
#include "viewer/outputs/output_formats.h"

namespace proton::viewer {
namespace {

constexpr size_t kChunk = size_t{1} << 20;

int ColumnCount(SqlStatement& query) { return sqlite3_column_count(query.get()); }

std::string ColumnName(SqlStatement& query, int c) {
  const char* name = sqlite3_column_name(query.get(), c);
  return name == nullptr ? std::string() : std::string(name);
}

std::string_view ColumnText(SqlStatement& query, int c) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(query.get(), c));
  return text == nullptr
             ? std::string_view()
             : std::string_view(text, static_cast<size_t>(sqlite3_column_bytes(query.get(), c)));
}

std::string Hex(SqlStatement& query, int c) {
  const auto* bytes = static_cast<const unsigned char*>(sqlite3_column_blob(query.get(), c));
  const int size = sqlite3_column_bytes(query.get(), c);
  std::string out;
  char pair[3];
  for (int i = 0; i < size; ++i) {
    std::snprintf(pair, sizeof pair, "%02x", bytes[i]);
    out += pair;
  }
  return out;
}

// Characters on screen: UTF-8 lead bytes (every byte of escaped text is one).
size_t Width(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char ch) {
    return (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  }));
}

// One cell of the aligned table, and whether it is a number.
std::string TableCell(SqlStatement& query, int c, bool& number) {
  switch (sqlite3_column_type(query.get(), c)) {
    case SQLITE_NULL: return std::string();
    case SQLITE_INTEGER:
    case SQLITE_FLOAT: return std::string(ColumnText(query, c));  // SQLite's %!.15g for floats
    case SQLITE_BLOB: number = false; return "x'" + Hex(query, c) + "'";
    default: number = false; return PrintableText(ColumnText(query, c));
  }
}

void Pad(OutputBuffer& out, size_t n) {
  for (; n > 0; --n) out.Write(" ");
}

void WriteRow(OutputBuffer& out, const std::vector<std::string>& cells,
              const std::vector<size_t>& widths, const std::vector<bool>& numeric) {
  for (size_t c = 0; c < cells.size(); ++c) {
    if (c > 0) out.Write("  ");
    const size_t pad = widths[c] - Width(cells[c]);
    if (numeric[c]) Pad(out, pad);
    out.Write(cells[c]);
    if (!numeric[c] && c + 1 < cells.size()) Pad(out, pad);
  }
  out.Write("\n");
}

// One value of a CSV or JSON-lines row.
void AppendValue(std::string& out, SqlStatement& query, int c, bool csv) {
  switch (sqlite3_column_type(query.get(), c)) {
    case SQLITE_NULL: out += csv ? "" : "null"; return;
    case SQLITE_INTEGER: out += std::to_string(sqlite3_column_int64(query.get(), c)); return;
    case SQLITE_FLOAT: {
      const double v = sqlite3_column_double(query.get(), c);
      if (csv)
        AppendCsvNumber(out, v);
      else
        AppendJsonNumber(out, v);
      return;
    }
    case SQLITE_BLOB: {
      const std::string hex = Hex(query, c);
      if (csv)
        out += hex;
      else
        AppendJsonString(out, hex);
      return;
    }
    default:
      if (csv)
        AppendCsvField(out, ColumnText(query, c));
      else
        AppendJsonString(out, ColumnText(query, c));
  }
}

}  // namespace

Status PrintResultTable(SqlStatement& query, OutputBuffer& out) {
  const int columns = ColumnCount(query);
  std::vector<std::string> header;
  std::vector<size_t> widths;
  for (int c = 0; c < columns; ++c) {
    header.push_back(PrintableText(ColumnName(query, c)));
    widths.push_back(Width(header.back()));
  }
  std::vector<bool> numeric(static_cast<size_t>(columns), true);
  std::vector<std::vector<std::string>> rows;
  for (;;) {
    PROTON_ASSIGN_OR_RETURN(const bool row, query.Step());
    if (!row) break;
    std::vector<std::string>& cells = rows.emplace_back();
    for (int c = 0; c < columns; ++c) {
      bool number = true;
      cells.push_back(TableCell(query, c, number));
      if (!number) numeric[static_cast<size_t>(c)] = false;
      widths[static_cast<size_t>(c)] =
          std::max(widths[static_cast<size_t>(c)], Width(cells.back()));
    }
  }
  WriteRow(out, header, widths, numeric);
  std::vector<std::string> rule;
  rule.reserve(widths.size());
  for (const size_t w : widths) rule.emplace_back(w, '-');
  WriteRow(out, rule, widths, numeric);
  for (const std::vector<std::string>& cells : rows) WriteRow(out, cells, widths, numeric);
  return Status();
}

Status WriteResultFile(SqlStatement& query, const std::string& path) {
  PROTON_ASSIGN_OR_RETURN(OutputFile file, OutputFile::Create(path));
  const bool csv = ExportFormatOf(path) == OutputFormat::kCsv;
  const int columns = ColumnCount(query);
  std::vector<std::string> names;
  names.reserve(static_cast<size_t>(columns));
  for (int c = 0; c < columns; ++c) names.push_back(ColumnName(query, c));
  std::string out;
  for (int c = 0; csv && c < columns; ++c) {
    if (c > 0) out += ',';
    AppendCsvField(out, names[static_cast<size_t>(c)]);
  }
  if (csv) out += '\n';
  for (;;) {
    PROTON_ASSIGN_OR_RETURN(const bool row, query.Step());
    if (!row) break;
    out += csv ? "" : "{";
    for (int c = 0; c < columns; ++c) {
      if (c > 0) out += ',';
      if (!csv) {
        AppendJsonString(out, names[static_cast<size_t>(c)]);
        out += ':';
      }
      AppendValue(out, query, c, csv);
    }
    out += csv ? "\n" : "}\n";
    if (out.size() >= kChunk) {
      std::fwrite(out.data(), 1, out.size(), file.get());
      out.clear();
    }
  }
  std::fwrite(out.data(), 1, out.size(), file.get());
  return file.Commit();
}

}  // namespace proton::viewer
