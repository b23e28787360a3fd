// See cli_args.h. The option table is the reference's add_argument calls (in their order, which
// shows in "ambiguous option" messages) and ours after them; the argparse engine
// (util/argparse.h) scans, and this file converts the values and makes the post-scan checks.
#include "viewer/cli/cli_args.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "util/argparse.h"
#include "viewer/cli/py_number.h"
#include "viewer/outputs/output_formats.h"

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
  kMerge
};

constexpr int Id(Opt opt) { return static_cast<int>(opt); }

// Values appear in messages verbatim (viewer.md §9).
const ArgParser& Parser() {
  static const ArgParser kParser = {
      {
          {.id = Id(Opt::kHelp), .strings = {"-h", "--help"}, .ends_scan = true},
          {Id(Opt::kList), {"-l", "--list"}},
          {Id(Opt::kMetrics), {"-m", "--metrics"}, ArgValue::kOne},
          {Id(Opt::kInclude), {"-i", "--include"}, ArgValue::kOne},
          {Id(Opt::kExclude), {"-e", "--exclude"}, ArgValue::kOne},
          {Id(Opt::kThreshold), {"-t", "--threshold"}, ArgValue::kOne},
          {Id(Opt::kDepth), {"-d", "--depth"}, ArgValue::kOne},
          {Id(Opt::kFormat),
           {"-f", "--format"},
           ArgValue::kOne,
           {"full", "file_function_line", "function_line", "file_function"}},  // NameFormat's order
          {Id(Opt::kPrintSorted), {"--print-sorted"}},
          {Id(Opt::kDiffProfile), {"--diff-profile", "-diff"}, ArgValue::kOne},
          // Ours (§11.7-§11.12): found only by their full spelling (or with "=VALUE"), so that
          // every abbreviation the reference accepts (--m, --de, --ex, --f, ...) keeps its
          // meaning (§11.6). --demangle's and --merge's values are only ever attached, so they
          // never take FILE (§11.9, §11.11).
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
          {.id = Id(Opt::kHtml),
           .strings = {"--html"},
           .value = ArgValue::kOne,
           .exact_only = true},
          {.id = Id(Opt::kSpeedscope),
           .strings = {"--speedscope"},
           .value = ArgValue::kOne,
           .exact_only = true},
          {.id = Id(Opt::kMerge),
           .strings = {"--merge"},
           .value = ArgValue::kAttachedOnly,
           .choices = {"stats", "sum"},
           .exact_only = true},
      },
      QuoteVerbatim,
      Positionals::kCollect,
  };
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
Status TakeFailAbove(ViewerArgs& a, const std::string& value) {
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

struct ScanState {
  ViewerArgs args;
  std::optional<std::string> metrics_text;  // -m as given (last one wins)
  std::vector<std::string> positionals;
};

Status TakeExport(ViewerArgs& args, const std::string& value) {
  if (!ExportFormatOf(value)) {
    return ArgumentError(Opt::kExport,
                         "FILE must end in " + ExportSuffixes() + ": '" + value + "'");
  }
  args.export_path = value;
  return Status();
}

// --html and --speedscope: a non-empty output path.
Status TakeOutputPath(ViewerArgs& args, Opt opt, const std::string& value) {
  if (value.empty()) return ArgumentError(opt, "FILE must not be empty");
  (opt == Opt::kHtml ? args.html_path : args.speedscope_path) = value;
  return Status();
}

Status TakeThreshold(ViewerArgs& args, const std::string& value) {
  std::optional<double> threshold = ParsePyFloat(value);
  if (!threshold) return ArgumentError(Opt::kThreshold, "invalid float value: '" + value + "'");
  // inf and nan are accepted here, like Python's float(); see CheckAfterScan.
  args.threshold = *threshold;
  args.has_threshold = *threshold != 0.0;  // Python truthiness: -t 0 does nothing
  args.threshold_text = value;
  return Status();
}

Status TakeDepth(ViewerArgs& args, const std::string& value) {
  std::optional<int64_t> depth = ParsePyInt(value);
  if (!depth) return ArgumentError(Opt::kDepth, "invalid int value: '" + value + "'");
  args.depth = *depth;
  return Status();
}

// -f's choices are listed in NameFormat's order.
NameFormat FormatNamed(const std::string& word) {
  const std::vector<std::string_view>& choices = OptionWithId(Parser(), Id(Opt::kFormat)).choices;
  return static_cast<NameFormat>(std::find(choices.begin(), choices.end(), word) - choices.begin());
}

// take_action: converts and stores one option's value; the engine has checked the choices, and
// an optional value that is absent (nullptr) takes its default.
Status TakeAction(ScanState& state, Opt opt, const std::string* value) {
  ViewerArgs& args = state.args;
  switch (opt) {
    case Opt::kHelp: args.help = true; return Status();
    case Opt::kList: args.list = true; return Status();
    case Opt::kPrintSorted: args.print_sorted = true; return Status();
    case Opt::kMetrics: state.metrics_text = *value; return Status();
    case Opt::kInclude: args.include = *value; return Status();
    case Opt::kExclude: args.exclude = *value; return Status();
    case Opt::kDiffProfile: args.diff_profile = *value; return Status();
    case Opt::kFailAbove: return TakeFailAbove(args, *value);
    case Opt::kMatch:
      args.match = *value == "normalized" ? MatchMode::kNormalized : MatchMode::kExact;
      return Status();
    case Opt::kDemangle:
      args.demangle =
          value != nullptr && *value == "short" ? DemangleMode::kShort : DemangleMode::kFull;
      return Status();
    case Opt::kExport: return TakeExport(args, *value);
    case Opt::kHtml:
    case Opt::kSpeedscope: return TakeOutputPath(args, opt, *value);
    case Opt::kMerge:
      args.merge = value != nullptr && *value == "sum" ? MergeMode::kSum : MergeMode::kStats;
      return Status();
    case Opt::kThreshold: return TakeThreshold(args, *value);
    case Opt::kDepth: return TakeDepth(args, *value);
    case Opt::kFormat: args.format = FormatNamed(*value); return Status();
  }
  return Status();
}

// --merge's combinations (§11.11): it reads FILEs only, and standard input at most once.
Status CheckMerge(const ViewerArgs& a) {
  if (a.merge == MergeMode::kNone) return Status();
  if (a.list) return Status::UsageError("--merge cannot be used with -l/--list");
  if (!a.diff_profile.empty()) {
    return Status::UsageError("--merge cannot be used with --diff-profile");
  }
  if (std::count(a.files.begin(), a.files.end(), "-") > 1) {
    return Status::UsageError("standard input ('-') can only be read once");
  }
  return Status();
}

// The FILE count (unknown options were reported by the scan): one, or several with --merge.
Status CheckPositionals(const ScanState& state) {
  if (state.positionals.empty()) return Status::UsageError("Must specify a file to read");
  if (state.positionals.size() > 1 && state.args.merge == MergeMode::kNone) {
    return Status::UsageError("Must specify exactly one file to read (got " +
                              std::to_string(state.positionals.size()) + ")");
  }
  return Status();
}

// -m's comma-separated items, trimmed; an empty item is an error.
Status SplitMetrics(const std::string& metrics_text, std::vector<std::string>& metrics) {
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
Status CheckOutputOptions(const ViewerArgs& args) {
  if (args.has_fail_above && args.diff_profile.empty()) {
    return Status::UsageError("--fail-above needs --diff-profile");
  }
  // Without metrics nothing is read (§2.4): a gate or an export would silently do nothing.
  if (args.metrics.empty() && args.has_fail_above) {
    return Status::UsageError("--fail-above needs a metric (-m)");
  }
  if (args.metrics.empty() && !args.export_path.empty()) {
    return Status::UsageError("--export needs a metric (-m)");
  }
  if (args.metrics.empty() && !args.html_path.empty()) {
    return Status::UsageError("--html needs a metric (-m)");
  }
  if (args.metrics.empty() && !args.speedscope_path.empty()) {
    return Status::UsageError("--speedscope needs a metric (-m)");
  }
  // speedscope has no notion of a difference (negative weights); --html draws diffs.
  if (!args.speedscope_path.empty() && !args.diff_profile.empty()) {
    return Status::UsageError("--speedscope cannot be combined with --diff-profile");
  }
  return Status();
}

Status CheckAfterScan(ScanState& state) {
  ViewerArgs& args = state.args;
  PROTON_RETURN_IF_ERROR(CheckPositionals(state));
  args.file = state.positionals[0];
  args.files = state.positionals;
  PROTON_RETURN_IF_ERROR(CheckMerge(args));
  if (!args.include.empty() && !args.exclude.empty()) {
    return Status::UsageError("Cannot specify both include and exclude");
  }
  // With -l, -m and --diff-profile are ignored (§2.4), as the reference ignores them.
  if (args.list) return Status();
  if (state.metrics_text && !state.metrics_text->empty()) {
    PROTON_RETURN_IF_ERROR(SplitMetrics(*state.metrics_text, args.metrics));
  }
  if (args.file == "-" && args.diff_profile == "-") {
    return Status::UsageError("standard input ('-') can only be read once");
  }
  // The reference fails on a non-finite threshold only once it filters, i.e. with metrics.
  if (!args.metrics.empty() && std::isnan(args.threshold - args.threshold)) {
    return ArgumentError(Opt::kThreshold,
                         "threshold must be a finite number: '" + args.threshold_text + "'");
  }
  return CheckOutputOptions(args);
}

}  // namespace

Result<ViewerArgs> ParseViewerArgs(const std::vector<std::string>& args) {
  ScanState state;
  auto take = [&](const ArgOption& option, const std::string* value) {
    return TakeAction(state, static_cast<Opt>(option.id), value);
  };
  PROTON_ASSIGN_OR_RETURN(ArgScan scan, ParseArgs(Parser(), args, take));
  if (state.args.help) return std::move(state.args);  // -h needs nothing else (§2.3)
  state.positionals = std::move(scan.positionals);
  PROTON_RETURN_IF_ERROR(CheckAfterScan(state));
  return std::move(state.args);
}

}  // namespace proton::viewer
