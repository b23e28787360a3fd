// See output_formats.h.
#include "viewer/outputs/output_formats.h"

#include <vector>

#include "viewer/outputs/html_report.h"
#include "viewer/outputs/speedscope.h"

namespace proton::viewer {
namespace {

constexpr OutputFormatInfo kFormats[] = {
    {OutputFormat::kCsv, "csv", ".csv", &OutputOptions::export_path, nullptr},
    {OutputFormat::kJsonLines, "jsonl", ".jsonl", &OutputOptions::export_path, nullptr},
    {OutputFormat::kSqlite, "sqlite", ".sqlite", &OutputOptions::export_path, nullptr},
    {OutputFormat::kHtml, "html", "", &OutputOptions::html_path, &WriteHtmlReport},
    {OutputFormat::kSpeedscope, "speedscope", "", &OutputOptions::speedscope_path,
     &WriteSpeedscope},
    // Written by merge/merge_traces.cc from the trace FILEs, not from a tree.
    {OutputFormat::kPerfettoTrace, "perfetto_trace", ".perfetto_trace", &OutputOptions::export_path,
     nullptr, OutputSource::kTraces},
};

bool IsTable(const OutputFormatInfo& f) { return f.write_report == nullptr; }

}  // namespace

std::span<const OutputFormatInfo> OutputFormats() { return kFormats; }

std::optional<OutputFormat> ExportFormatOf(std::string_view path) {
  for (const OutputFormatInfo& f : kFormats) {
    if (IsTable(f) && path.ends_with(f.suffix)) return f.format;
  }
  return std::nullopt;
}

std::string ExportSuffixes() {
  std::vector<std::string_view> suffixes;
  for (const OutputFormatInfo& f : kFormats) {
    if (IsTable(f)) suffixes.push_back(f.suffix);
  }
  std::string list;
  for (size_t i = 0; i < suffixes.size(); ++i) {
    if (i > 0) list += i + 1 == suffixes.size() ? " or " : ", ";
    list += suffixes[i];
  }
  return list;
}

bool ExportsTraces(std::string_view path) {
  return ExportFormatOf(path) == OutputFormat::kPerfettoTrace;
}

bool WantsReport(const OutputOptions& output) {
  for (const OutputFormatInfo& f : kFormats) {
    if (!IsTable(f) && !(output.*f.path).empty()) return true;
  }
  return false;
}

}  // namespace proton::viewer
