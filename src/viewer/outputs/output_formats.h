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

enum class OutputFormat : uint8_t { kCsv, kJsonLines, kSqlite, kHtml, kSpeedscope, kPerfettoTrace };

// What a format is made from: the printed tree (tables, drawings), or trace FILEs, which
// --export FILE.perfetto_trace merges (§11.17) without reading any tree.
enum class OutputSource : uint8_t { kPrintedTree, kTraces };

struct OutputFormatInfo {
  OutputFormat format;
  std::string_view name;             // "csv", "jsonl", "sqlite", "html", "speedscope"
  std::string_view suffix;           // what FILE must end in; "" where any name is accepted
  std::string OutputOptions::*path;  // the option's FILE ("" = not asked for)
  // The drawings of the printed tree; nullptr for --export's tables, which ExportTable and
  // ExportMergeTable write (a merge's table has rows per file), and for the SQLite database
  // of the FILEs (viewer/sql).
  Status (*write_report)(const std::string& path, const ReportInput& in);
  OutputSource source = OutputSource::kPrintedTree;
};

// Every format, in the order the command writes them.
std::span<const OutputFormatInfo> OutputFormats();

// --export's format, by FILE's suffix (a table, or the merged trace); nullopt when none has it.
std::optional<OutputFormat> ExportFormatOf(std::string_view path);

// --export's formats' suffixes for messages: ".csv, .jsonl, .sqlite or .perfetto_trace".
std::string ExportSuffixes();

// Whether --export's FILE asks for the merged trace of trace FILEs (.perfetto_trace).
bool ExportsTraces(std::string_view path);

// Whether `output` asks for a drawing (--html, --speedscope).
bool WantsReport(const OutputOptions& output);

}  // namespace proton::viewer
