// See trace_report_html.h. The strips are inline SVG, drawn here rather than by a script:
// the rectangles are already bounded by DownsampleSpans, and a page without a script is
// smaller, opens anywhere and needs no second template. A gap's tooltip is its SVG <title>.
#include "viewer/outputs/trace_report_html.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "viewer/outputs/output_file.h"
#include "viewer/outputs/trace_report_text.h"

namespace proton::viewer {
namespace {

constexpr int kStripHeightPx = 18;
// A largest gap is drawn at least this wide, so that a 50 us gap in a 10 s trace still shows.
constexpr double kMinGapPx = 3.0;

constexpr const char* kStyle = R"(<style>
body{font:13px system-ui,sans-serif;margin:16px;color:#222}
h1{font-size:18px}h2{font-size:16px;margin-top:28px}h3{font-size:14px;margin:14px 0 4px}
table{border-collapse:collapse;margin:4px 0 10px}td,th{padding:2px 8px;text-align:right}
td.name,th.name{text-align:left;font-family:monospace;max-width:60em;overflow:hidden}
tr:nth-child(even){background:#f4f4f4}th{border-bottom:1px solid #999}
.lane{display:flex;align-items:center;margin:2px 0}
.lane .label{width:200px;flex:none;font-family:monospace;overflow:hidden;white-space:nowrap}
svg.strip{width:1200px;height:18px;background:#fff;border:1px solid #ccc;flex:none}
rect.busy{fill:#2f6fbf}rect.gap{fill:#e8483b;fill-opacity:.55;cursor:help}
rect.gap:hover{fill-opacity:.9}.axis{margin-left:200px;width:1200px;display:flex;
justify-content:space-between;color:#666;font-size:11px}
</style>)";

template <class... Args>
std::string Format(const char* format, Args... args) {
  char buf[128];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

std::string Escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Pct(int64_t part, int64_t whole) {
  const double pct =
      whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
  return Format("%.2f%%", pct);
}

double Px(int64_t ns, int64_t span_ns) {
  return span_ns > 0 ? static_cast<double>(ns) * kStripWidthPx / static_cast<double>(span_ns) : 0.0;
}

std::string Cell(const std::string& text, bool name = false) {
  return (name ? "<td class=\"name\">" : "<td>") + Escape(text) + "</td>";
}

std::string HeaderRow(const std::vector<std::string>& columns) {
  std::string row = "<tr>";
  for (size_t i = 0; i < columns.size(); ++i) {
    row += (i + 1 == columns.size() ? "<th class=\"name\">" : "<th>") + columns[i] + "</th>";
  }
  return row + "</tr>\n";
}

std::string GapRect(const TraceReport& r, const IdleGap& g, size_t rank) {
  const double width = std::max(Px(g.length_ns, r.span_ns), kMinGapPx);
  const double x = std::min(Px(g.at_ns, r.span_ns), kStripWidthPx - width);
  std::string tip = "idle " + FormatNs(g.length_ns) + " at " + FormatNs(g.at_ns) +
                    " (largest gap #" + std::to_string(rank + 1) + ")\nbefore: " + g.before +
                    "\nafter: " + g.after;
  return Format("<rect class=\"gap\" data-at-ns=\"%" PRId64 "\" data-length-ns=\"%" PRId64
                "\" x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"%d\">",
                g.at_ns, g.length_ns, x, width, kStripHeightPx) +
         "<title>" + Escape(tip) + "</title></rect>";
}

// One stream's strip: its busy rectangles (at least a third of a pixel wide, so a lone short
// kernel stays visible), then its largest gaps over them.
std::string Strip(const TraceReport& r, size_t stream) {
  const StreamStats& s = r.streams[stream];
  std::string out = "<div class=\"lane\"><span class=\"label\" title=\"" + Escape(s.name) + "\">" +
                    Escape(s.name) + "</span>";
  out += Format(
      "<svg class=\"strip\" data-rects=\"%zu\" viewBox=\"0 0 %d %d\" "
      "preserveAspectRatio=\"none\">",
      s.strip.size(), kStripWidthPx, kStripHeightPx);
  for (const StripRect& rect : s.strip) {
    const double x = Px(rect.start_ns, r.span_ns);
    const double width = std::max(Px(rect.end_ns - rect.start_ns, r.span_ns), 0.34);
    out += Format("<rect class=\"busy\" x=\"%.2f\" width=\"%.2f\" height=\"%d\"/>", x, width,
                  kStripHeightPx);
  }
  for (size_t g = 0; g < r.largest_gaps.size(); ++g) {
    if (r.largest_gaps[g].stream == stream) out += GapRect(r, r.largest_gaps[g], g);
  }
  return out + "</svg></div>\n";
}

std::string Strips(const TraceReport& r) {
  std::string out =
      "<h3>Timeline: busy (blue) and idle (empty) per stream; largest gaps in "
      "red, hover for details</h3>\n<div class=\"strips\">\n";
  for (size_t s = 0; s < r.streams.size(); ++s) out += Strip(r, s);
  return out + "<div class=\"axis\"><span>0</span><span>" + FormatNs(r.span_ns) +
         "</span></div></div>\n";
}

std::string StreamTables(const TraceReport& r) {
  std::string out =
      "<h3>GPU streams: busy and idle time between a stream's first kernel start "
      "and last end</h3>\n<table class=\"streams\">" +
      HeaderRow({"kernels", "busy", "idle", "util%", "stream"});
  for (const StreamStats& s : r.streams) {
    out += "<tr>" + Cell(std::to_string(s.kernels)) + Cell(FormatNs(s.busy_ns)) +
           Cell(FormatNs(s.idle_ns)) + Cell(Pct(s.busy_ns, s.span_ns)) + Cell(s.name, true) +
           "</tr>\n";
  }
  out += "</table>\n<h3>Idle gaps by length: count / total time</h3>\n<table class=\"buckets\">";
  std::vector<std::string> columns;
  for (size_t b = 0; b < kGapBuckets; ++b) columns.emplace_back(GapBucketName(b));
  columns.emplace_back("stream");
  out += HeaderRow(columns);
  for (const StreamStats& s : r.streams) {
    out += "<tr>";
    for (const GapBucket& g : s.gaps) {
      out += Cell(std::to_string(g.count) + " / " + FormatNs(g.total_ns));
    }
    out += Cell(s.name, true) + "</tr>\n";
  }
  return out + "</table>\n";
}

std::string GapTable(const TraceReport& r) {
  if (r.largest_gaps.empty()) return "";
  std::string out =
      "<h3>Largest idle gaps (at: from the trace's first kernel)</h3>\n"
      "<table class=\"gaps\">" +
      HeaderRow({"length", "at", "stream", "kernel before", "kernel after"});
  for (const IdleGap& g : r.largest_gaps) {
    out += "<tr>" + Cell(FormatNs(g.length_ns)) + Cell(FormatNs(g.at_ns)) +
           Cell(r.streams[g.stream].name, true) + Cell(g.before, true) + Cell(g.after, true) +
           "</tr>\n";
  }
  return out + "</table>\n";
}

std::string OverlapTable(const TraceReport& r) {
  std::string out =
      "<h3>Communication (NCCL kernels) overlapped by compute on the same "
      "device</h3>\n";
  if (r.overlap.empty()) return out + "<p>no NCCL kernels</p>\n";
  out += "<table class=\"overlap\">" +
         HeaderRow({"kernels", "communication", "overlapped", "overlap%", "device"});
  for (const DeviceOverlap& d : r.overlap) {
    const double pct =
        d.comm_ns > 0 ? 100.0 * static_cast<double>(d.overlap_ns) / static_cast<double>(d.comm_ns)
                      : 0.0;
    out += "<tr>" + Cell(std::to_string(d.comm_kernels)) + Cell(FormatNs(d.comm_ns)) +
           Cell(FormatNs(d.overlap_ns)) + Cell(Format("%.1f%%", pct)) +
           Cell(d.device == traces::kUnknown ? "?" : std::to_string(d.device), true) + "</tr>\n";
  }
  return out + "</table>\n";
}

std::string StatsRow(const Percentiles& p, bool total, const std::string& name) {
  std::string row = "<tr>" + Cell(std::to_string(p.count));
  if (total) row += Cell(FormatNs(p.total_ns));
  for (const int64_t v : {p.p50_ns, p.p90_ns, p.p99_ns, p.max_ns}) row += Cell(FormatNs(v));
  return row + Cell(name, true) + "</tr>\n";
}

std::string PercentileTables(const TraceReport& r) {
  std::string out =
      "<h3>Launch latency (CPU launch to kernel start), nearest-rank "
      "percentiles</h3>\n";
  if (r.launch.count == 0) {
    out += "<p>no launch-&gt;kernel flows</p>\n";
  } else {
    out += "<table class=\"launch\">" +
           HeaderRow({"launches", "p50", "p90", "p99", "max", "kernel"}) +
           StatsRow(r.launch, false, "(all)");
    for (const NamedPercentiles& n : r.worst_launch) out += StatsRow(n.stats, false, n.name);
    out += "</table>\n";
  }
  out += Format("<h3>Kernel durations: top %zu of %" PRIu64 " names by total time</h3>\n",
                r.kernel_durations.size(), r.kernel_names);
  out += "<table class=\"durations\">" +
         HeaderRow({"count", "total", "p50", "p90", "p99", "max", "kernel"});
  for (const NamedPercentiles& n : r.kernel_durations) out += StatsRow(n.stats, true, n.name);
  return out + "</table>\n";
}

}  // namespace

std::string TraceReportHtml(const std::vector<TraceReport>& reports) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>proton trace report</title>\n";
  out += kStyle;
  out += "</head><body>\n<h1>proton trace report</h1>\n";
  for (const TraceReport& r : reports) {
    out += "<section class=\"trace\" data-file=\"" + Escape(r.file) + "\">\n<h2>" + Escape(r.file) +
           Format(": %" PRIu64 " kernels on %zu streams, %s</h2>\n", r.kernels, r.streams.size(),
                  FormatNs(r.span_ns).c_str());
    out += Strips(r) + StreamTables(r) + GapTable(r) + OverlapTable(r) + PercentileTables(r);
    out += "</section>\n";
  }
  return out + "</body></html>\n";
}

Status WriteTraceReportHtml(const std::string& path, const std::vector<TraceReport>& reports) {
  return WriteTextFile(path, TraceReportHtml(reports));
}

}  // namespace proton::viewer
