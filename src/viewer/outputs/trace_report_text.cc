// See trace_report_text.h. Names come last on each line, so that long (mangled) kernel names
// do not push the numbers out of their columns.
#include "viewer/outputs/trace_report_text.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

namespace proton::viewer {
namespace {

template <class... Args>
void Line(std::string& out, const char* format, Args... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, args...);
  out += buf;
}

double Pct(int64_t part, int64_t whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// Kernel names cut at 100 bytes, as the live view cuts them: mangled names reach 600 bytes.
std::string Cut(const std::string& name) {
  constexpr size_t kMax = 100;
  return name.size() <= kMax ? name : name.substr(0, kMax - 3) + "...";
}

std::string DeviceName(int64_t device) {
  return device == traces::kUnknown ? "?" : std::to_string(device);
}

void Streams(std::string& out, const TraceReport& r) {
  out += "GPU streams: busy and idle time between a stream's first kernel start and last end\n";
  Line(out, "  %9s %12s %12s %7s  %s\n", "kernels", "busy", "idle", "util%", "stream");
  for (const StreamStats& s : r.streams) {
    Line(out, "  %9" PRIu64 " %12s %12s %6.2f%%  %s\n", s.kernels, FormatNs(s.busy_ns).c_str(),
         FormatNs(s.idle_ns).c_str(), Pct(s.busy_ns, s.span_ns), s.name.c_str());
  }
  out += "Idle gaps by length: count / total time\n  ";
  for (size_t b = 0; b < kGapBuckets; ++b) {
    Line(out, "%22.*s ", static_cast<int>(GapBucketName(b).size()), GapBucketName(b).data());
  }
  out += " stream\n";
  for (const StreamStats& s : r.streams) {
    out += "  ";
    for (const GapBucket& g : s.gaps) {
      Line(out, "%9" PRIu64 " / %10s ", g.count, FormatNs(g.total_ns).c_str());
    }
    out += " " + s.name + "\n";
  }
}

void Gaps(std::string& out, const TraceReport& r) {
  if (r.largest_gaps.empty()) return;
  out += "Largest idle gaps (at: from the trace's first kernel)\n";
  Line(out, "  %12s %12s  %s\n", "length", "at", "stream: kernel before -> kernel after");
  for (const IdleGap& g : r.largest_gaps) {
    Line(out, "  %12s %12s  ", FormatNs(g.length_ns).c_str(), FormatNs(g.at_ns).c_str());
    out += r.streams[g.stream].name + ": " + Cut(g.before) + " -> " + Cut(g.after) + "\n";
  }
}

void Overlap(std::string& out, const TraceReport& r) {
  out += "Communication (NCCL kernels) overlapped by compute on the same device\n";
  if (r.overlap.empty()) out += "  no NCCL kernels\n";
  for (const DeviceOverlap& d : r.overlap) {
    Line(out, "  device %s: %" PRIu64 " kernels, %s communication, %s overlapped (%.1f%%)\n",
         DeviceName(d.device).c_str(), d.comm_kernels, FormatNs(d.comm_ns).c_str(),
         FormatNs(d.overlap_ns).c_str(), Pct(d.overlap_ns, d.comm_ns));
  }
}

void StatsRow(std::string& out, const Percentiles& p, bool total, const std::string& name) {
  Line(out, "  %9" PRIu64 " ", p.count);
  if (total) Line(out, "%12s ", FormatNs(p.total_ns).c_str());
  Line(out, "%11s %11s %11s %11s  ", FormatNs(p.p50_ns).c_str(), FormatNs(p.p90_ns).c_str(),
       FormatNs(p.p99_ns).c_str(), FormatNs(p.max_ns).c_str());
  out += Cut(name) + "\n";
}

void Launch(std::string& out, const TraceReport& r) {
  out += "Launch latency (CPU launch to kernel start), nearest-rank percentiles\n";
  if (r.launch.count == 0) {
    out += "  no launch->kernel flows\n";
    return;
  }
  Line(out, "  %9s %11s %11s %11s %11s  %s\n", "launches", "p50", "p90", "p99", "max", "kernel");
  StatsRow(out, r.launch, false, "(all)");
  for (const NamedPercentiles& n : r.worst_launch) StatsRow(out, n.stats, false, n.name);
}

void Durations(std::string& out, const TraceReport& r) {
  Line(out, "Kernel durations: top %zu of %" PRIu64 " names by total time\n",
       r.kernel_durations.size(), r.kernel_names);
  Line(out, "  %9s %12s %11s %11s %11s %11s  %s\n", "count", "total", "p50", "p90", "p99", "max",
       "kernel");
  for (const NamedPercentiles& n : r.kernel_durations) StatsRow(out, n.stats, true, n.name);
}

}  // namespace

std::string FormatNs(int64_t ns) {
  char buf[48];
  const double v = static_cast<double>(ns);
  if (std::llabs(ns) >= 1'000'000'000) {
    std::snprintf(buf, sizeof buf, "%.3f s", v / 1e9);
  } else if (std::llabs(ns) >= 1'000'000) {
    std::snprintf(buf, sizeof buf, "%.3f ms", v / 1e6);
  } else if (std::llabs(ns) >= 1'000) {
    std::snprintf(buf, sizeof buf, "%.3f us", v / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%" PRId64 " ns", ns);
  }
  return buf;
}

std::string TraceReportText(const std::vector<TraceReport>& reports) {
  std::string out;
  for (const TraceReport& r : reports) {
    if (!out.empty()) out += '\n';
    out += "== " + r.file;
    Line(out, ": %" PRIu64 " kernels on %zu streams ==\n", r.kernels, r.streams.size());
    Streams(out, r);
    Gaps(out, r);
    Overlap(out, r);
    Launch(out, r);
    Durations(out, r);
  }
  return out;
}

}  // namespace proton::viewer
