// ExportTraceReports (trace_report_text.h): the columns of viewer.md §11.18, the same for
// every section; a cell a section has no use for is empty (CSV) or null (JSON lines).
#include <optional>
#include <string>
#include <utility>

#include "viewer/outputs/output_file.h"
#include "viewer/outputs/output_formats.h"
#include "viewer/outputs/table_writer.h"
#include "viewer/outputs/trace_report_text.h"

namespace proton::viewer {
namespace {

// One row's cells; unset ones are written empty.
struct Row {
  std::string_view section;
  std::string key;
  std::optional<double> count, total_ns, other_ns, pct, p50_ns, p90_ns, p99_ns, max_ns;
  std::string before, after;
};

const std::vector<std::string> kColumns = {"file",     "section", "key",    "count",  "total_ns",
                                           "other_ns", "pct",     "p50_ns", "p90_ns", "p99_ns",
                                           "max_ns",   "before",  "after"};

void Write(RowWriter& w, const std::string& file, const Row& r) {
  w.Begin();
  w.Text("file", file);
  w.Text("section", r.section);
  w.Text("key", r.key);
  const std::pair<const char*, const std::optional<double>*> numbers[] = {
      {"count", &r.count},   {"total_ns", &r.total_ns}, {"other_ns", &r.other_ns},
      {"pct", &r.pct},       {"p50_ns", &r.p50_ns},     {"p90_ns", &r.p90_ns},
      {"p99_ns", &r.p99_ns}, {"max_ns", &r.max_ns}};
  for (const auto& [name, value] : numbers) {
    if (*value) {
      w.Number(name, **value);
    } else {
      w.Null(name);
    }
  }
  w.Text("before", r.before);
  w.Text("after", r.after);
  w.End();
}

double D(int64_t v) { return static_cast<double>(v); }
double D(uint64_t v) { return static_cast<double>(v); }
double Pct(int64_t part, int64_t whole) { return whole > 0 ? 100.0 * D(part) / D(whole) : 0.0; }

Row Stats(std::string_view section, std::string key, const Percentiles& p) {
  Row row;
  row.section = section;
  row.key = std::move(key);
  row.count = D(p.count);
  row.total_ns = D(p.total_ns);
  row.p50_ns = D(p.p50_ns);
  row.p90_ns = D(p.p90_ns);
  row.p99_ns = D(p.p99_ns);
  row.max_ns = D(p.max_ns);
  return row;
}

// A row of counts and times: count, total_ns, other_ns (when given) and pct (when given).
Row Sums(std::string_view section, std::string key, double count, double total,
         std::optional<double> other = {}, std::optional<double> pct = {}) {
  Row row;
  row.section = section;
  row.key = std::move(key);
  row.count = count;
  row.total_ns = total;
  row.other_ns = other;
  row.pct = pct;
  return row;
}

void StreamRows(RowWriter& w, const TraceReport& r) {
  for (const StreamStats& s : r.streams) {
    Write(w, r.file,
          Sums("stream", s.name, D(s.kernels), D(s.busy_ns), D(s.idle_ns),
               Pct(s.busy_ns, s.span_ns)));
    for (size_t b = 0; b < kGapBuckets; ++b) {
      Write(w, r.file,
            Sums("gaps", s.name + " " + std::string(GapBucketName(b)), D(s.gaps[b].count),
                 D(s.gaps[b].total_ns)));
    }
  }
  for (const IdleGap& g : r.largest_gaps) {
    Row row = Sums("largest_gap", r.streams[g.stream].name, 0, D(g.length_ns), D(g.at_ns));
    row.count.reset();
    row.before = g.before;
    row.after = g.after;
    Write(w, r.file, row);
  }
}

void ReportRows(RowWriter& w, const TraceReport& r) {
  StreamRows(w, r);
  for (const DeviceOverlap& d : r.overlap) {
    const std::string device = d.device == traces::kUnknown ? "?" : std::to_string(d.device);
    Write(w, r.file,
          Sums("overlap", device, D(d.comm_kernels), D(d.comm_ns), D(d.overlap_ns),
               Pct(d.overlap_ns, d.comm_ns)));
  }
  if (r.launch.count > 0) Write(w, r.file, Stats("launch", "(all)", r.launch));
  for (const NamedPercentiles& n : r.worst_launch) {
    Write(w, r.file, Stats("launch", n.name, n.stats));
  }
  for (const NamedPercentiles& n : r.kernel_durations) {
    Write(w, r.file, Stats("kernel", n.name, n.stats));
  }
}

}  // namespace

Status ExportTraceReports(const std::string& path, const std::vector<TraceReport>& reports) {
  PROTON_ASSIGN_OR_RETURN(OutputFile file, OutputFile::Create(path));
  RowWriter w(file.get(), ExportFormatOf(path) == OutputFormat::kCsv);
  w.Header(kColumns);
  for (const TraceReport& r : reports) ReportRows(w, r);
  w.Drain();
  return file.Commit();
}

}  // namespace proton::viewer
