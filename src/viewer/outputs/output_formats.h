// The files proton-viewer writes besides the printed tree (viewer.md §11.8, §11.12), in one
// table: which option asks for each, what its FILE must end in, and what writes it. The
// command line checks --export's FILE against the table's suffixes, the exports pick their
// cells by it, and the command writes every asked-for drawing by walking it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "util/status.h"
#include "viewer/common/options.h"
#include "viewer/outputs/report_input.h"

namespace proton::viewer {

enum class OutputFormat : uint8_t { kCsv, kJsonLines, kSqlite, kHtml, kSpeedscope };

struct OutputFormatInfo {
  OutputFormat format;
  std::string_view name;             // "csv", "jsonl", "sqlite", "html", "speedscope"
  std::string_view suffix;           // what FILE must end in; "" where any name is accepted
  std::string OutputOptions::*path;  // the option's FILE ("" = not asked for)
  // The drawings of the printed tree; nullptr for --export's tables, which ExportTable and
  // ExportMergeTable write (a merge's table has rows per file), and for the SQLite database
  // of the FILEs (viewer/sql).
  Status (*write_report)(const std::string& path, const ReportInput& in);
};

// Every format, in the order the command writes them.
std::span<const OutputFormatInfo> OutputFormats();

// --export's table format, by FILE's suffix; nullopt when no table format has it.
std::optional<OutputFormat> ExportFormatOf(std::string_view path);

// The table formats' suffixes for messages: ".csv, .jsonl or .sqlite".
std::string ExportSuffixes();

// Whether `output` asks for a drawing (--html, --speedscope).
bool WantsReport(const OutputOptions& output);

}  // namespace proton::viewer
