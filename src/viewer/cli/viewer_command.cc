// See viewer_command.h. The order of steps is §8's; every error is a value.
#include "viewer/cli/viewer_command.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string_view>

#include "format/profile_reader.h"
#include "util/command_main.h"
#include "util/out_of_memory.h"
#include "viewer/cli/baseline_diff.h"
#include "viewer/cli/cli_args.h"
#include "viewer/cli/view_input.h"
#include "viewer/live/follow.h"
#include "viewer/merge/merge_export.h"
#include "viewer/merge/merge_profiles.h"
#include "viewer/merge/merge_report.h"
#include "viewer/merge/merge_stragglers.h"
#include "viewer/merge/merge_traces.h"
#include "viewer/names/demangle.h"
#include "viewer/names/name_normalize.h"
#include "viewer/ops/fail_gate.h"
#include "viewer/ops/filters.h"
#include "viewer/ops/metrics.h"
#include "viewer/outputs/export.h"
#include "viewer/outputs/output_formats.h"
#include "viewer/outputs/printers.h"
#include "viewer/outputs/straggler_report.h"
#include "viewer/outputs/trace_report_html.h"
#include "viewer/outputs/trace_report_text.h"
#include "viewer/sql/sql_command.h"

namespace proton::viewer {
namespace {

// --fail-above's view of the diff: both sides' first column per union node.
GateInput MakeGateInput(const DiffUnion& u, const Prepared& left, const Prepared& right,
                        const OutputOptions& output) {
  GateInput g;
  g.tree = &u.tree;
  g.now.assign(u.tree.size(), kMissing);
  g.base.assign(u.tree.size(), kMissing);
  for (NodeId id = 0; id < u.tree.size(); ++id) {
    if (u.left[id] != kNoNode) g.now[id] = left.columns[0].Value(left.tree, u.left[id]);
    if (u.right[id] != kNoNode) g.base[id] = right.columns[0].Value(right.tree, u.right[id]);
  }
  g.label = left.columns[0].item;
  g.pct = output.fail_above_pct;
  g.min = output.fail_above_min;
  g.spec = output.fail_above_text;
  return g;
}

// What --html and --speedscope draw: the printer's input plus what the terminal leaves out.
ReportInput MakeReportInput(const PrintInput& in, const ViewOptions& view,
                            const std::vector<std::string>& argv, const Prepared& left,
                            const Prepared* right, const DiffUnion* diff) {
  ReportInput r;
  r.mode = right == nullptr ? ReportMode::kSingle : ReportMode::kDiff;
  r.print = &in;
  r.items = view.metrics;
  r.depth = view.depth;
  r.format = view.format;
  r.command.push_back("proton-viewer");
  r.command.insert(r.command.end(), argv.begin(), argv.end());
  r.profiles.push_back({left.display_name, &left.tree.devices()});
  if (right == nullptr) return r;
  r.profiles.push_back({right->display_name, &right->tree.devices()});
  r.now.assign(diff->tree.size(), kMissing);
  r.base.assign(diff->tree.size(), kMissing);
  for (NodeId id = 0; id < diff->tree.size(); ++id) {
    if (diff->left[id] != kNoNode) r.now[id] = left.columns[0].Value(left.tree, diff->left[id]);
    if (diff->right[id] != kNoNode) {
      r.base[id] = right->columns[0].Value(right->tree, diff->right[id]);
    }
  }
  return r;
}

// One side output; running out of memory while writing it is that output's error (the
// unwinding removes its temporary file).
Status WriteSideOutput(const std::string& path, const std::function<Status()>& write) {
  return CatchOutOfMemory("writing '" + path + "'", write);
}

// The drawings of `report` that were asked for (--html, --speedscope), in the table's order.
Status WriteReports(const OutputOptions& output, const ReportInput& report) {
  for (const OutputFormatInfo& f : OutputFormats()) {
    const std::string& path = output.*f.path;
    if (f.write_report == nullptr || path.empty()) continue;
    PROTON_RETURN_IF_ERROR(WriteSideOutput(path, [&] { return f.write_report(path, report); }));
  }
  return Status();
}

bool ExportsSqlite(const OutputOptions& output) {
  return ExportFormatOf(output.export_path) == OutputFormat::kSqlite;
}

// --export's FILE: the database of every FILE (§11.13), or the printed tree as a table.
Status WriteExport(const ViewerOptions& options, const std::function<Status()>& write_table) {
  const std::string& path = options.output.export_path;
  if (ExportsSqlite(options.output)) {
    return WriteSideOutput(
        path, [&] { return WriteSqliteExport(path, options.input.files, options.view.metrics); });
  }
  return WriteSideOutput(path, write_table);
}

// The side outputs, written before anything is printed so that their errors leave standard
// output empty (§9).
Status WriteSideOutputs(const PrintInput& in, const ViewerOptions& options,
                        const std::vector<std::string>& argv, const Prepared& left,
                        const std::optional<Prepared>& right,
                        const std::optional<DiffUnion>& diff) {
  const ViewOptions& view = options.view;
  const OutputOptions& output = options.output;
  if (!output.export_path.empty()) {
    PROTON_RETURN_IF_ERROR(WriteExport(
        options, [&] { return ExportTable(output.export_path, in, view.metrics, view.depth); }));
  }
  if (!WantsReport(output)) return Status();
  return CatchOutOfMemory("preparing the pictures", [&] {
    return WriteReports(output, MakeReportInput(in, view, argv, left, right ? &*right : nullptr,
                                                diff ? &*diff : nullptr));
  });
}

void WriteAll(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // nothing better to do with a failing stderr
    text.remove_prefix(static_cast<size_t>(n));
  }
}

// Flushes the output and turns a write error into the command's error (§7.9): a full disk
// must not end in a truncated file and status 0. A closed pipe (EPIPE, SIGPIPE being
// ignored) stays quiet, with the reference's exit status 1 but without its traceback.
Result<int> FinishOutput(OutputBuffer& out) {
  out.Flush();
  if (out.error() == 0) return 0;
  if (out.error() == EPIPE) return kClosedOutputStatus;
  return Status::Error(std::string("cannot write to standard output: ") +
                       std::strerror(out.error()));
}

PrintOptions PrintOptionsFor(const ViewOptions& view, bool color) {
  PrintOptions options;
  options.depth = view.depth;
  options.format = view.format;
  options.color = color;
  options.print_sorted = view.print_sorted;
  return options;
}

// The tree (and --print-sorted) on standard output, flushed before returning.
Result<int> PrintTree(int out_fd, const PrintInput& in, const ViewOptions& view, bool color) {
  return CatchOutOfMemory("printing", [&]() -> Result<int> {
    OutputBuffer out(out_fd);
    PrintAll(out, in, PrintOptionsFor(view, color));
    return FinishOutput(out);
  });
}

// --merge --stragglers (§11.15): the report instead of the tree; --export writes its table,
// --html the merged tree's page with the report's section.
Result<int> RunStragglers(const ViewerOptions& options, const MergedProfiles& merged,
                          const std::vector<std::string>& argv, int out_fd) {
  const OutputOptions& output = options.output;
  const StragglerReport report =
      BuildStragglers(merged, options.input.files, options.view.metrics[0], output.stragglers_pct);
  if (!output.export_path.empty()) {
    PROTON_RETURN_IF_ERROR(WriteSideOutput(
        output.export_path, [&] { return ExportStragglers(output.export_path, report); }));
  }
  if (WantsReport(output)) {
    PROTON_RETURN_IF_ERROR(CatchOutOfMemory("preparing the pictures", [&] {
      ReportInput page = MakeMergeReport(merged, options.input.merge, options.view, argv);
      page.stragglers = &report;
      return WriteReports(output, page);
    }));
  }
  OutputBuffer out(out_fd);
  out.Write(StragglerText(report));
  return FinishOutput(out);
}

// --merge (§11.11): the side outputs, then the printed tree of the merged profiles.
Result<int> RunMerge(const ViewerOptions& options, const std::vector<std::string>& argv, int out_fd,
                     bool color) {
  const InputOptions& input = options.input;
  const ViewOptions& view = options.view;
  const OutputOptions& output = options.output;
  PROTON_ASSIGN_OR_RETURN(MergedProfiles merged, MergeProfiles(input, view));
  merged.in.tree = &merged.tree;
  // Display only (§11.9): the files were matched and filtered by their stored names.
  ApplyDemangle(merged.tree, view.demangle);
  if (output.stragglers) return RunStragglers(options, merged, argv, out_fd);
  if (!output.export_path.empty()) {
    PROTON_RETURN_IF_ERROR(WriteExport(options, [&] {
      return input.merge == MergeMode::kSum
                 ? ExportTable(output.export_path, merged.in, view.metrics, view.depth)
                 : ExportMergeTable(output.export_path, merged, view.metrics, view.depth);
    }));
  }
  if (WantsReport(output)) {
    PROTON_RETURN_IF_ERROR(CatchOutOfMemory("preparing the pictures", [&] {
      return WriteReports(output, MakeMergeReport(merged, input.merge, view, argv));
    }));
  }
  return PrintTree(out_fd, merged.in, view, color);
}

// Every input is checked before any is opened (§9.2), so a missing file is named at once,
// not after an earlier FIFO has been waited on or a huge file read.
Status CheckInputs(const InputOptions& input, bool list) {
  if (input.merge != MergeMode::kNone || input.files.size() > 1 || !input.baselines.empty()) {
    for (const std::string& file : input.files) PROTON_RETURN_IF_ERROR(format::CheckInput(file));
    return Status();
  }
  PROTON_RETURN_IF_ERROR(format::CheckInput(input.file()));
  if (input.diff_profile.empty() || list) return Status();
  return format::CheckInput(input.diff_profile);
}

// FILE alone or with --diff-profile: the printer's input, and both sides.
struct SingleView {
  Prepared left;
  std::optional<Prepared> right;
  std::optional<DiffUnion> diff;
  PrintInput in;
};

Status BuildDiff(const ViewOptions& view, SingleView& v) {
  PROTON_RETURN_IF_ERROR(CheckComparable(v.left, *v.right));
  if (view.match == MatchMode::kNormalized) {  // after the filters, which see stored names
    NormalizeNames(v.left.tree);
    NormalizeNames(v.right->tree);
  }
  MergeDuplicates(v.left.tree);
  MergeDuplicates(v.right->tree);
  v.diff = BuildDiffUnion(v.left.tree, v.right->tree);
  v.in.tree = &v.diff->tree;
  FillDiff(*v.diff, v.left, *v.right, v.in);
  return Status();
}

Result<int> RunSingle(const ViewerOptions& options, const std::vector<std::string>& argv,
                      int out_fd, bool color, int err_fd) {
  const ViewOptions& view = options.view;
  const OutputOptions& output = options.output;
  SingleView v;
  PROTON_ASSIGN_OR_RETURN(v.left, Prepare(options.input.file(), view));
  if (!options.input.diff_profile.empty()) {
    PROTON_ASSIGN_OR_RETURN(v.right, Prepare(options.input.diff_profile, view));
    PROTON_RETURN_IF_ERROR(CatchOutOfMemory(
        "comparing '" + v.left.display_name + "' with '" + v.right->display_name + "'",
        [&] { return BuildDiff(view, v); }));
  } else {
    v.in.tree = &v.left.tree;
    PROTON_RETURN_IF_ERROR(CatchOutOfMemory("processing '" + v.left.display_name + "'", [&] {
      FillPlain(v.left, v.in);
      return Status();
    }));
  }
  // Display only (§11.9): the filters, the pairing and the merges above saw the stored names.
  ApplyDemangle(v.diff ? v.diff->tree : v.left.tree, view.demangle);
  PROTON_RETURN_IF_ERROR(WriteSideOutputs(v.in, options, argv, v.left, v.right, v.diff));
  PROTON_ASSIGN_OR_RETURN(const int printed, PrintTree(out_fd, v.in, view, color));
  if (printed != 0 || !output.has_fail_above) return printed;
  // The gate's lines come after the normal output, which PrintTree flushed.
  const bool failed = ReportGateFailures(MakeGateInput(*v.diff, v.left, *v.right, output),
                                         [&](std::string_view text) { WriteAll(err_fd, text); });
  return failed ? kGateFailedStatus : 0;
}

// --sql (§11.13): the query's rows instead of the tree.
Result<int> RunSqlQuery(const ViewerOptions& options, int out_fd) {
  const SqlRequest request{options.output.sql, options.input.files, options.view.metrics,
                           options.output.export_path};
  return CatchOutOfMemory("running the SQL query", [&]() -> Result<int> {
    OutputBuffer out(out_fd);
    PROTON_RETURN_IF_ERROR(RunSql(request, out));
    return FinishOutput(out);
  });
}

// A run that reads its FILEs into a database and prints no tree (§11.13): --sql, or
// --export FILE.sqlite without -m.
Result<int> RunDatabaseOnly(const ViewerOptions& options, int out_fd) {
  const bool list_queries = options.output.has_sql && options.output.sql == "list";
  if (!list_queries) PROTON_RETURN_IF_ERROR(CheckInputs(options.input, false));
  if (options.output.has_sql) return RunSqlQuery(options, out_fd);
  PROTON_RETURN_IF_ERROR(WriteExport(options, nullptr));
  return 0;
}

// --baseline (§11.16): the medians' differences printed as a diff, then the noise-aware gate.
Result<int> RunBaseline(const ViewerOptions& options, int out_fd, bool color, int err_fd) {
  const ViewOptions& view = options.view;
  const OutputOptions& output = options.output;
  PROTON_ASSIGN_OR_RETURN(std::vector<std::string> baselines,
                          ExpandBaselines(options.input.baselines));
  for (const std::string& file : baselines) PROTON_RETURN_IF_ERROR(format::CheckInput(file));
  PROTON_ASSIGN_OR_RETURN(BaselineDiff d, BuildBaselineDiff(options.input, baselines, view));
  d.in.tree = &d.diff.tree;
  // Display only (§11.9): both sides were matched by their stored (or normalised) names.
  ApplyDemangle(d.diff.tree, view.demangle);
  if (!output.export_path.empty()) {
    PROTON_RETURN_IF_ERROR(WriteSideOutput(output.export_path, [&] {
      return ExportTable(output.export_path, d.in, view.metrics, view.depth);
    }));
  }
  PROTON_ASSIGN_OR_RETURN(const int printed, PrintTree(out_fd, d.in, view, color));
  if (printed != 0 || !output.has_fail_above) return printed;
  NoiseGateInput gate = MakeNoiseGateInput(d, view.metrics, output);
  gate.tree = &d.diff.tree;
  const bool failed =
      ReportNoiseGateFailures(gate, [&](std::string_view text) { WriteAll(err_fd, text); });
  return failed ? kGateFailedStatus : 0;
}

// --follow RUN (§11.14): the live view, until the run ends.
Result<int> RunFollow(const ViewerOptions& options, int out_fd, bool terminal, int err_fd) {
  FollowOptions follow;
  follow.run = options.live.run;
  follow.has_timeout = options.live.has_timeout;
  follow.timeout_s = options.live.timeout_s;
  follow.timeout_text = options.live.timeout_text;
  follow.item = options.view.metrics.empty() ? "time/ms" : options.view.metrics[0];
  PROTON_ASSIGN_OR_RETURN(follow.per_ns, FollowUnitsPerNs(options.view.metrics));
  follow.demangle = options.view.demangle;
  return Follow(follow, out_fd, terminal, err_fd);
}

// --export FILE.perfetto_trace (§11.17): the trace FILEs merged; warnings on standard error.
Result<int> RunTraceExport(const ViewerOptions& options, int err_fd) {
  PROTON_RETURN_IF_ERROR(
      MergeTraces(options.input.files, options.output.export_path, [&](std::string_view line) {
        WriteAll(err_fd, "proton-viewer: warning: " + std::string(line) + "\n");
      }));
  return 0;
}

// --trace-report (§11.18): every trace FILE read and reported, in FILE order; --export
// writes the table, --html the page with the timeline strips, and nothing is printed or written
// unless every FILE was read.
Result<int> RunTraceReports(const ViewerOptions& options, int out_fd) {
  for (const std::string& file : options.input.files) {
    PROTON_RETURN_IF_ERROR(format::CheckInput(file));
  }
  std::vector<TraceReport> reports;
  for (const std::string& file : options.input.files) {
    PROTON_ASSIGN_OR_RETURN(TraceReport report, ReportTraceFile(file));
    report.file = format::DisplayName(file);
    reports.push_back(std::move(report));
  }
  if (!options.output.export_path.empty()) {
    PROTON_RETURN_IF_ERROR(ExportTraceReports(options.output.export_path, reports));
  }
  if (!options.output.html_path.empty()) {
    PROTON_RETURN_IF_ERROR(WriteTraceReportHtml(options.output.html_path, reports));
  }
  OutputBuffer out(out_fd);
  out.Write(TraceReportText(reports));
  return FinishOutput(out);
}

}  // namespace

Result<int> ViewerMain(const std::vector<std::string>& argv, int out_fd, bool color, int err_fd) {
  PROTON_ASSIGN_OR_RETURN(ViewerOptions options, ParseViewerArgs(argv));
  if (options.help) {
    OutputBuffer out(out_fd);
    out.Write(HelpText());
    return FinishOutput(out);
  }
  if (!options.live.run.empty()) return RunFollow(options, out_fd, color, err_fd);
  if (options.output.trace_report) return RunTraceReports(options, out_fd);
  if (ExportsTraces(options.output.export_path)) return RunTraceExport(options, err_fd);
  const bool list = options.output.list;
  if (!list &&
      (options.output.has_sql || (options.view.metrics.empty() && ExportsSqlite(options.output)))) {
    return RunDatabaseOnly(options, out_fd);
  }
  if (options.view.metrics.empty() && !list) return 0;  // FILE is not even opened (§2.4)
  PROTON_RETURN_IF_ERROR(CheckInputs(options.input, list));
  if (list) {
    PROTON_ASSIGN_OR_RETURN(ProfileTree tree, format::LoadProfile(options.input.file()));
    OutputBuffer out(out_fd);
    PrintMetricList(out, tree);
    return FinishOutput(out);
  }
  if (options.input.merge != MergeMode::kNone) return RunMerge(options, argv, out_fd, color);
  if (!options.input.baselines.empty()) return RunBaseline(options, out_fd, color, err_fd);
  return RunSingle(options, argv, out_fd, color, err_fd);
}

namespace {

// Page faults dominate a 20k-node run on virtual machines (about 10 us per 4 KB page here,
// ~1,500 of them for the tree and its passes). Arrays up to 32 MB are taken from the heap,
// which is grown once by 64 MB of padding (untouched pages cost no memory) and marked for
// transparent huge pages: one fault then maps 2 MB. Larger arrays stay separate mappings
// (advised by ProfileTree itself). Purely a performance hint: every call may fail harmlessly.
void UseHugePageHeap() {
  constexpr size_t kPad = size_t{64} << 20;
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
  mallopt(M_TOP_PAD, static_cast<int>(kPad));
  char* before = static_cast<char*>(::sbrk(0));
  // Makes the heap grow by the padding now (volatile: the pair must not be optimised away).
  void* volatile probe = std::malloc(size_t{256} << 10);
  char* after = static_cast<char*>(::sbrk(0));
  std::free(probe);
  // sbrk fails with (void*)-1, compared as an integer.
  if (reinterpret_cast<intptr_t>(before) == -1 || reinterpret_cast<intptr_t>(after) == -1 ||
      after <= before)
    return;
  const auto huge = uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<uintptr_t>(before) + huge - 1) & ~(huge - 1);
  const auto end = reinterpret_cast<uintptr_t>(after) & ~(huge - 1);
  // madvise takes whole pages: the range is rounded as an integer, then made an address.
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace

int RunViewerCommand(int argc, char** argv) {
  UseHugePageHeap();
  // Writes report their failures instead of killing the process without a word: a closed
  // pipe is EPIPE (quiet on standard output, an error for --export and the pictures, §7.9,
  // §11.8) and a file size limit EFBIG.
  ::signal(SIGPIPE, SIG_IGN);
  ::signal(SIGXFSZ, SIG_IGN);
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  return RunCommand("proton-viewer", UsageText(), [&]() -> Result<int> {
    return ViewerMain(args, STDOUT_FILENO, ::isatty(STDOUT_FILENO) == 1);
  });
}

}  // namespace proton::viewer
