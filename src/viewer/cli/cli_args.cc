// See cli_args.h. The option table is the reference's add_argument calls (in their order, which
// shows in "ambiguous option" messages) and ours after them; the argparse engine
// (util/argparse.h) scans, and this file converts the values and makes the post-scan checks.
#include "viewer/cli/cli_args.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "util/argparse.h"
#include "viewer/cli/follow_conflict.h"
#include "viewer/cli/py_number.h"
#include "viewer/merge/merge_stragglers.h"
#include "viewer/outputs/output_formats.h"
#include "viewer/sql/sql_command.h"

namespace proton::viewer {
namespace {

enum class Opt {
  kHelp,
  kList,
  kMetrics,
  kInclude,
  kExclude,
  kThreshold,
  kDepth,
  kFormat,
  kPrintSorted,
  kDiffProfile,
  kFailAbove,
  kMatch,
  kExport,
  kDemangle,
  kHtml,
  kSpeedscope,
  kMerge,
  kSql,
  kFollow,
  kFollowTimeout,
  kStragglers,
  kBaseline,
  kTraceReport
};

constexpr int Id(Opt opt) { return static_cast<int>(opt); }

// The reference's options, in its add_argument order (which shows in "ambiguous option"
// messages).
std::vector<ArgOption> ReferenceOptions() {
  return {
      {.id = Id(Opt::kHelp), .strings = {"-h", "--help"}, .ends_scan = true},
      {Id(Opt::kList), {"-l", "--list"}},
      {Id(Opt::kMetrics), {"-m", "--metrics"}, ArgValue::kOne},
      {Id(Opt::kInclude), {"-i", "--include"}, ArgValue::kOne},
      {Id(Opt::kExclude), {"-e", "--exclude"}, ArgValue::kOne},
      {Id(Opt::kThreshold), {"-t", "--threshold"}, ArgValue::kOne},
      {Id(Opt::kDepth), {"-d", "--depth"}, ArgValue::kOne},
      // -f's choices are SetFormat's check, which the Python API shares.
      {Id(Opt::kFormat), {"-f", "--format"}, ArgValue::kOne},
      {Id(Opt::kPrintSorted), {"--print-sorted"}},
      {Id(Opt::kDiffProfile), {"--diff-profile", "-diff"}, ArgValue::kOne},
  };
}

// Ours (§11.7-§11.16): found only by their full spelling (or with "=VALUE"), so that every
// abbreviation the reference accepts (--m, --de, --ex, --f, ...) keeps its meaning (§11.6).
// --demangle's, --merge's and --stragglers' values are only ever attached, so they never
// take FILE (§11.9, §11.11, §11.15).
std::vector<ArgOption> OurOptions() {
  return {
      {.id = Id(Opt::kFailAbove),
       .strings = {"--fail-above"},
       .value = ArgValue::kOne,
       .exact_only = true},
      {.id = Id(Opt::kMatch),
       .strings = {"--match"},
       .value = ArgValue::kOne,
       .choices = {"exact", "normalized"},
       .exact_only = true},
      {.id = Id(Opt::kExport),
       .strings = {"--export"},
       .value = ArgValue::kOne,
       .exact_only = true},
      {.id = Id(Opt::kDemangle),
       .strings = {"--demangle"},
       .value = ArgValue::kAttachedOnly,
       .choices = {"full", "short"},
       .exact_only = true},
      {.id = Id(Opt::kHtml), .strings = {"--html"}, .value = ArgValue::kOne, .exact_only = true},
      {.id = Id(Opt::kSpeedscope),
       .strings = {"--speedscope"},
       .value = ArgValue::kOne,
       .exact_only = true},
      {.id = Id(Opt::kMerge),
       .strings = {"--merge"},
       .value = ArgValue::kAttachedOnly,
       .choices = {"stats", "sum"},
       .exact_only = true},
      {.id = Id(Opt::kFollow),
       .strings = {"--follow"},
       .value = ArgValue::kOne,
       .exact_only = true},
      {.id = Id(Opt::kFollowTimeout),
       .strings = {"--follow-timeout"},
       .value = ArgValue::kOne,
       .exact_only = true},
      {.id = Id(Opt::kStragglers),
       .strings = {"--stragglers"},
       .value = ArgValue::kAttachedOnly,
       .exact_only = true},
      // Repeatable: each one adds a baseline FILE (§11.16).
      {.id = Id(Opt::kBaseline),
       .strings = {"--baseline"},
       .value = ArgValue::kOne,
       .exact_only = true},
      {.id = Id(Opt::kSql), .strings = {"--sql"}, .value = ArgValue::kOne, .exact_only = true},
      {.id = Id(Opt::kTraceReport), .strings = {"--trace-report"}, .exact_only = true},
  };
}

// Values appear in messages verbatim (viewer.md §9).
const ArgParser& Parser() {
  static const ArgParser kParser = [] {
    std::vector<ArgOption> options = ReferenceOptions();
    std::vector<ArgOption> ours = OurOptions();
    options.insert(options.end(), ours.begin(), ours.end());
    return ArgParser{std::move(options), QuoteVerbatim, Positionals::kCollect};
  }();
  return kParser;
}

Error ArgumentError(Opt opt, std::string_view message) {
  return ::proton::ArgumentError(OptionWithId(Parser(), Id(opt)), message);
}

std::string_view TrimSpacesTabs(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// --fail-above's value: PCT or PCT,MIN, each a finite non-negative Python float().
Status TakeFailAbove(OutputOptions& a, const std::string& value) {
  const size_t comma = value.find(',');
  std::optional<double> pct = ParsePyFloat(value.substr(0, comma));
  std::optional<double> min = comma == std::string::npos ? std::optional<double>(0.0)
                                                         : ParsePyFloat(value.substr(comma + 1));
  const auto good = [](const std::optional<double>& v) {
    return v && std::isfinite(*v) && *v >= 0;
  };
  if (!good(pct) || !good(min)) {
    return ArgumentError(Opt::kFailAbove,
                         "expected PCT[,MIN] (non-negative numbers): '" + value + "'");
  }
  a.has_fail_above = true;
  a.fail_above_pct = *pct;
  a.fail_above_min = *min;
  a.fail_above_text = value;
  return Status();
}

// A finite Python float() above `low` (or at least `low`, `inclusive`), for our options'
// numbers; the error names the option and what it expects.
Result<double> TakeNumber(Opt opt, const std::string& value, double low, bool inclusive,
                          std::string_view expected) {
  const std::optional<double> v = ParsePyFloat(value);
  if (!v || !std::isfinite(*v) || *v < low || (!inclusive && *v == low)) {
    return ArgumentError(opt, "expected " + std::string(expected) + ": '" + value + "'");
  }
  return *v;
}

Status TakeFollowTimeout(LiveOptions& live, const std::string& value) {
  PROTON_ASSIGN_OR_RETURN(live.timeout_s,
                          TakeNumber(Opt::kFollowTimeout, value, 0, false, "seconds (> 0)"));
  live.has_timeout = true;
  live.timeout_text = value;
  return Status();
}

Status TakeStragglers(OutputOptions& output, const std::string* value) {
  output.stragglers = true;
  if (value == nullptr) return Status();
  PROTON_ASSIGN_OR_RETURN(output.stragglers_pct,
                          TakeNumber(Opt::kStragglers, *value, 0, true, "PCT (a number >= 0)"));
  return Status();
}

struct ScanState {
  ViewerOptions args;
  std::optional<std::string> metrics_text;  // -m as given (last one wins)
  std::vector<std::string> positionals;
  std::vector<Opt> given;  // every option scanned, in order
};

bool Given(const ScanState& state, Opt opt) {
  return std::find(state.given.begin(), state.given.end(), opt) != state.given.end();
}

bool ExportsSqlite(const OutputOptions& output) {
  return ExportFormatOf(output.export_path) == OutputFormat::kSqlite;
}

Status TakeExport(OutputOptions& args, const std::string& value) {
  const std::optional<OutputFormat> format = ExportFormatOf(value);
  if (!format) {
    return ArgumentError(Opt::kExport,
                         "FILE must end in " + ExportSuffixes() + ": '" + value + "'");
  }
  if (*format == OutputFormat::kSqlite && !SqliteAvailable()) {
    return Status::UsageError(SqliteUnavailable("--export FILE.sqlite").message());
  }
  args.export_path = value;
  return Status();
}

Status TakeSql(OutputOptions& args, const std::string& value) {
  if (!SqliteAvailable()) return Status::UsageError(SqliteUnavailable("--sql").message());
  if (value.empty()) return ArgumentError(Opt::kSql, "QUERY must not be empty");
  args.has_sql = true;
  args.sql = value;
  return Status();
}

// --html and --speedscope: a non-empty output path.
Status TakeOutputPath(OutputOptions& args, Opt opt, const std::string& value) {
  if (value.empty()) return ArgumentError(opt, "FILE must not be empty");
  (opt == Opt::kHtml ? args.html_path : args.speedscope_path) = value;
  return Status();
}

// take_action: converts and stores one option's value; the engine has checked the choices, and
// an optional value that is absent (nullptr) takes its default.
Status TakeAction(ScanState& state, Opt opt, const std::string* value) {
  state.given.push_back(opt);
  ViewOptions& view = state.args.view;
  OutputOptions& output = state.args.output;
  switch (opt) {
    case Opt::kHelp: state.args.help = true; return Status();
    case Opt::kList: output.list = true; return Status();
    case Opt::kPrintSorted: view.print_sorted = true; return Status();
    case Opt::kMetrics: state.metrics_text = *value; return Status();
    case Opt::kInclude: view.include = *value; return Status();
    case Opt::kExclude: view.exclude = *value; return Status();
    case Opt::kDiffProfile: state.args.input.diff_profile = *value; return Status();
    case Opt::kFailAbove: return TakeFailAbove(output, *value);
    case Opt::kMatch:
      view.match = *value == "normalized" ? MatchMode::kNormalized : MatchMode::kExact;
      return Status();
    case Opt::kDemangle:
      view.demangle =
          value != nullptr && *value == "short" ? DemangleMode::kShort : DemangleMode::kFull;
      return Status();
    case Opt::kExport: return TakeExport(output, *value);
    case Opt::kHtml:
    case Opt::kSpeedscope: return TakeOutputPath(output, opt, *value);
    case Opt::kMerge:
      state.args.input.merge =
          value != nullptr && *value == "sum" ? MergeMode::kSum : MergeMode::kStats;
      return Status();
    case Opt::kSql: return TakeSql(output, *value);
    case Opt::kFollow:
      if (value->empty()) return ArgumentError(opt, "RUN must not be empty");
      state.args.live.run = *value;
      return Status();
    case Opt::kFollowTimeout: return TakeFollowTimeout(state.args.live, *value);
    case Opt::kStragglers: return TakeStragglers(output, value);
    case Opt::kTraceReport: output.trace_report = true; return Status();
    case Opt::kBaseline:
      if (value->empty()) return ArgumentError(opt, "FILE must not be empty");
      state.args.input.baselines.push_back(*value);
      return Status();
    case Opt::kThreshold: return SetThreshold(view, *value);
    case Opt::kDepth: return SetDepth(view, *value);
    case Opt::kFormat: return SetFormat(view, *value);
  }
  return Status();
}

// --stragglers reads the files of --merge=stats (§11.15).
Status CheckStragglers(const ViewerOptions& a) {
  if (!a.output.stragglers) return Status();
  if (a.input.merge == MergeMode::kNone) return Status::UsageError("--stragglers needs --merge");
  if (a.input.merge == MergeMode::kSum) {
    return Status::UsageError("--stragglers needs --merge=stats (the default), not --merge=sum");
  }
  return CheckStragglerFiles(a.input.files);
}

// --baseline's combinations (§11.16): a comparison of medians, which has no single
// DIFF_PROFILE, merge or drawing.
Status CheckBaseline(const ViewerOptions& a) {
  const InputOptions& input = a.input;
  if (input.baselines.empty()) return Status();
  if (a.output.list) return Status::UsageError("--baseline cannot be used with -l/--list");
  if (!input.diff_profile.empty()) {
    return Status::UsageError("--baseline cannot be used with --diff-profile");
  }
  if (input.merge != MergeMode::kNone) {
    return Status::UsageError("--baseline cannot be used with --merge");
  }
  if (!a.output.html_path.empty())
    return Status::UsageError("--html cannot be combined with --baseline");
  if (!a.output.speedscope_path.empty()) {
    return Status::UsageError("--speedscope cannot be combined with --baseline");
  }
  const auto stdin_count = std::count(input.files.begin(), input.files.end(), "-") +
                           std::count(input.baselines.begin(), input.baselines.end(), "-");
  if (stdin_count > 1) return Status::UsageError("standard input ('-') can only be read once");
  return Status();
}

// --merge's combinations (§11.11): it reads FILEs only, and standard input at most once.
Status CheckMerge(const ViewerOptions& a) {
  if (a.input.merge == MergeMode::kNone) return Status();
  if (a.output.list) return Status::UsageError("--merge cannot be used with -l/--list");
  if (!a.input.diff_profile.empty()) {
    return Status::UsageError("--merge cannot be used with --diff-profile");
  }
  if (std::count(a.input.files.begin(), a.input.files.end(), "-") > 1) {
    return Status::UsageError("standard input ('-') can only be read once");
  }
  return Status();
}

// Whether the run reads every FILE into one database and prints no tree: --sql, or
// --export FILE.sqlite without -m (§11.13). Several FILEs are then fine without --merge.
bool ReadsIntoDatabase(const ScanState& state) {
  if (state.args.output.has_sql) return true;
  const bool metrics = state.metrics_text && !state.metrics_text->empty();
  return ExportsSqlite(state.args.output) && !metrics && !state.args.output.list;
}

// The FILE count (unknown options were reported by the scan): one, or several with --merge,
// --baseline, into a database or a merged trace (--export FILE.perfetto_trace); none for
// --sql list.
Status CheckPositionals(const ScanState& state) {
  if (state.args.output.has_sql && state.args.output.sql == "list") return Status();
  if (state.positionals.empty()) return Status::UsageError("Must specify a file to read");
  const bool many = state.args.input.merge != MergeMode::kNone ||
                    !state.args.input.baselines.empty() || ReadsIntoDatabase(state) ||
                    ExportsTraces(state.args.output.export_path) || state.args.output.trace_report;
  if (state.positionals.size() > 1 && !many) {
    return Status::UsageError("Must specify exactly one file to read (got " +
                              std::to_string(state.positionals.size()) + ")");
  }
  return Status();
}

// -m's comma-separated items, trimmed; an empty item is an error.
Status SplitMetrics(const std::string& metrics_text, std::vector<std::string>& metrics) {
  metrics.clear();
  std::string_view text = metrics_text;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view item = TrimSpacesTabs(text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (item.empty()) {
      return Status::UsageError("argument -m/--metrics: empty metric name in '" + metrics_text +
                                "'");
    }
    metrics.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return Status();
}

// The options that need metrics or a diff, and those that exclude each other.
Status CheckOutputOptions(const ViewerOptions& options) {
  const OutputOptions& output = options.output;
  const bool no_metrics = options.view.metrics.empty();
  const bool diff = !options.input.diff_profile.empty();
  // --baseline's comparison of medians is gated too (§11.16); the message names the option
  // every user of the gate knows.
  if (output.has_fail_above && !diff && options.input.baselines.empty()) {
    return Status::UsageError("--fail-above needs --diff-profile");
  }
  // Without metrics nothing is read (§2.4): a gate or an export would silently do nothing.
  if (no_metrics && output.has_fail_above) {
    return Status::UsageError("--fail-above needs a metric (-m)");
  }
  // A database holds every metric of the FILEs; -m only adds its columns (§11.13).
  if (no_metrics && !output.export_path.empty() && !ExportsSqlite(output) && !output.has_sql) {
    return Status::UsageError("--export needs a metric (-m)");
  }
  if (no_metrics && !output.html_path.empty()) {
    return Status::UsageError("--html needs a metric (-m)");
  }
  if (no_metrics && !output.speedscope_path.empty()) {
    return Status::UsageError("--speedscope needs a metric (-m)");
  }
  if (no_metrics && output.stragglers)
    return Status::UsageError("--stragglers needs a metric (-m)");
  if (no_metrics && !options.input.baselines.empty()) {
    return Status::UsageError("--baseline needs a metric (-m)");
  }
  // speedscope has no notion of a difference (negative weights); --html draws diffs.
  if (!output.speedscope_path.empty() && diff) {
    return Status::UsageError("--speedscope cannot be combined with --diff-profile");
  }
  return Status();
}

// --sql's result replaces the printed tree (§11.13): the options that shape or accompany the
// tree have nothing to act on. --merge is accepted (every FILE is read anyway).
Status CheckSql(const ScanState& state) {
  if (!state.args.output.has_sql) return Status();
  static constexpr Opt kTreeOptions[] = {
      Opt::kList,     Opt::kInclude,     Opt::kExclude,     Opt::kThreshold,  Opt::kDepth,
      Opt::kFormat,   Opt::kPrintSorted, Opt::kDiffProfile, Opt::kFailAbove,  Opt::kMatch,
      Opt::kDemangle, Opt::kHtml,        Opt::kSpeedscope,  Opt::kStragglers, Opt::kBaseline};
  for (const Opt opt : kTreeOptions) {
    if (!Given(state, opt)) continue;
    return Status::UsageError("--sql cannot be combined with " +
                              ArgumentName(OptionWithId(Parser(), Id(opt))));
  }
  return Status();
}

// FILE '-' is read once: --export FILE.sqlite beside a printed tree reads the FILEs again.
Status CheckStdinOnce(const ScanState& state) {
  const ViewerOptions& args = state.args;
  if (!ExportsSqlite(args.output) || ReadsIntoDatabase(state) || args.output.list) {
    return Status();
  }
  if (std::count(args.input.files.begin(), args.input.files.end(), "-") == 0) return Status();
  return Status::UsageError(
      "standard input ('-') can only be read once: --export FILE.sqlite with -m reads "
      "every FILE again after the tree; name the file instead");
}

// --follow RUN (§11.14) reads no FILE and shows GPU time only.
Status CheckFollow(ScanState& state) {
  ViewerOptions& args = state.args;
  if (!state.positionals.empty()) {
    return Status::UsageError("--follow takes no FILE (got " +
                              std::to_string(state.positionals.size()) + ")");
  }
  if (const char* conflict = FollowConflict(args)) {
    return Status::UsageError(std::string("--follow cannot be used with ") + conflict);
  }
  if (state.metrics_text) PROTON_RETURN_IF_ERROR(SetMetrics(args.view, *state.metrics_text));
  return FollowUnitsPerNs(args.view.metrics).status();
}

// --export FILE.perfetto_trace (§11.17) merges trace FILEs and reads no tree: every option
// about trees is refused rather than silently ignored.
Status CheckTraceExport(const ScanState& state) {
  for (const Opt opt : state.given) {
    if (opt == Opt::kExport) continue;
    return Status::UsageError("--export .perfetto_trace cannot be combined with " +
                              ArgumentName(OptionWithId(Parser(), Id(opt))));
  }
  const std::vector<std::string>& files = state.args.input.files;
  if (std::count(files.begin(), files.end(), "-") > 1) {
    return Status::UsageError("standard input ('-') can only be read once");
  }
  return Status();
}

// --trace-report (§11.18) reads trace FILEs and no tree: --export FILE.csv or FILE.jsonl is
// its table, --html FILE its page; every other option is refused rather than silently ignored.
Status CheckTraceReport(const ScanState& state) {
  for (const Opt opt : state.given) {
    if (opt == Opt::kTraceReport || opt == Opt::kHtml) continue;
    const std::optional<OutputFormat> format = ExportFormatOf(state.args.output.export_path);
    if (opt == Opt::kExport &&
        (format == OutputFormat::kCsv || format == OutputFormat::kJsonLines)) {
      continue;
    }
    if (opt == Opt::kExport) {
      return Status::UsageError("--trace-report exports to FILE.csv or FILE.jsonl only");
    }
    return Status::UsageError("--trace-report cannot be combined with " +
                              ArgumentName(OptionWithId(Parser(), Id(opt))));
  }
  const std::vector<std::string>& files = state.args.input.files;
  if (std::count(files.begin(), files.end(), "-") > 1) {
    return Status::UsageError("standard input ('-') can only be read once");
  }
  return Status();
}

Status CheckAfterScan(ScanState& state) {
  ViewerOptions& args = state.args;
  if (!args.live.run.empty()) return CheckFollow(state);
  if (args.live.has_timeout) return Status::UsageError("--follow-timeout needs --follow");
  PROTON_RETURN_IF_ERROR(CheckPositionals(state));
  args.input.files = state.positionals;
  if (args.output.trace_report) return CheckTraceReport(state);
  if (ExportsTraces(args.output.export_path)) return CheckTraceExport(state);
  PROTON_RETURN_IF_ERROR(CheckSql(state));
  if (args.output.has_sql && args.output.sql == "list") return Status();
  PROTON_RETURN_IF_ERROR(CheckMerge(args));
  PROTON_RETURN_IF_ERROR(CheckStragglers(args));
  PROTON_RETURN_IF_ERROR(CheckBaseline(args));
  PROTON_RETURN_IF_ERROR(CheckIncludeExclude(args.view));
  // With -l, -m and --diff-profile are ignored (§2.4), as the reference ignores them.
  if (args.output.list) return Status();
  if (state.metrics_text) PROTON_RETURN_IF_ERROR(SetMetrics(args.view, *state.metrics_text));
  if (args.input.file() == "-" && args.input.diff_profile == "-") {
    return Status::UsageError("standard input ('-') can only be read once");
  }
  PROTON_RETURN_IF_ERROR(CheckThresholdFinite(args.view));
  PROTON_RETURN_IF_ERROR(CheckOutputOptions(args));
  return CheckStdinOnce(state);
}

}  // namespace

Result<double> FollowUnitsPerNs(const std::vector<std::string>& metrics) {
  if (metrics.empty()) return 1e-6;  // time/ms
  static constexpr std::pair<std::string_view, double> kUnits[] = {
      {"time/s", 1e-9}, {"time/ms", 1e-6}, {"time/us", 1e-3}, {"time/ns", 1.0}};
  for (const auto& [item, per_ns] : kUnits) {
    if (metrics.size() == 1 && metrics[0] == item) return per_ns;
  }
  return Status::UsageError(
      "--follow shows GPU time: -m must be one of time/s, time/ms, time/us, time/ns");
}

Status SetMetrics(ViewOptions& view, const std::string& text) {
  view.metrics.clear();
  if (text.empty()) return Status();
  return SplitMetrics(text, view.metrics);
}

Status SetThreshold(ViewOptions& view, const std::string& value) {
  std::optional<double> threshold = ParsePyFloat(value);
  if (!threshold) return ArgumentError(Opt::kThreshold, "invalid float value: '" + value + "'");
  // inf and nan are accepted here, like Python's float(); see CheckThresholdFinite.
  view.threshold = *threshold;
  view.has_threshold = *threshold != 0.0;  // Python truthiness: -t 0 does nothing
  view.threshold_text = value;
  return Status();
}

Status SetDepth(ViewOptions& view, const std::string& value) {
  std::optional<int64_t> depth = ParsePyInt(value);
  if (!depth) return ArgumentError(Opt::kDepth, "invalid int value: '" + value + "'");
  view.depth = *depth;
  return Status();
}

Status SetFormat(ViewOptions& view, const std::string& value) {
  // argparse's "invalid choice" message, with the choices in NameFormat's order.
  static constexpr std::string_view kChoices[] = {"full", "file_function_line", "function_line",
                                                  "file_function"};
  const auto* found = std::find(std::begin(kChoices), std::end(kChoices), value);
  if (found == std::end(kChoices)) {
    std::string listed;
    for (std::string_view choice : kChoices) {
      listed += (listed.empty() ? "" : ", ") + QuoteVerbatim(choice);
    }
    return ArgumentError(
        Opt::kFormat, "invalid choice: " + QuoteVerbatim(value) + " (choose from " + listed + ")");
  }
  view.format = static_cast<NameFormat>(found - std::begin(kChoices));
  return Status();
}

Status CheckIncludeExclude(const ViewOptions& view) {
  if (!view.include.empty() && !view.exclude.empty()) {
    return Status::UsageError("Cannot specify both include and exclude");
  }
  return Status();
}

Status CheckThresholdFinite(const ViewOptions& view) {
  // The reference fails on a non-finite threshold only once it filters, i.e. with metrics.
  if (!view.metrics.empty() && std::isnan(view.threshold - view.threshold)) {
    return ArgumentError(Opt::kThreshold,
                         "threshold must be a finite number: '" + view.threshold_text + "'");
  }
  return Status();
}

Result<ViewerOptions> ParseViewerArgs(const std::vector<std::string>& args) {
  ScanState state;
  auto take = [&](const ArgOption& option, const std::string* value) {
    state.given.push_back(static_cast<Opt>(option.id));
    return TakeAction(state, static_cast<Opt>(option.id), value);
  };
  PROTON_ASSIGN_OR_RETURN(ArgScan scan, ParseArgs(Parser(), args, take));
  if (state.args.help) return std::move(state.args);  // -h needs nothing else (§2.3)
  state.positionals = std::move(scan.positionals);
  PROTON_RETURN_IF_ERROR(CheckAfterScan(state));
  return std::move(state.args);
}

}  // namespace proton::viewer
