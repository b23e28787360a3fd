// See cli_args.h. The scan follows CPython 3.11's argparse step by step: every argument is
// first classified as an option ('O') or not ('A') by _parse_optional (which is where
// ambiguous prefixes are reported, before anything is consumed); then the arguments are
// consumed left to right by consume_optional, converting values as each option is taken.
#include "viewer/cli_args.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "viewer/py_number.h"

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

struct OptionString {
  std::string_view text;
  Opt opt;
};

// argparse's _option_string_actions, in registration order (this order shows in the
// "ambiguous option" message).
constexpr OptionString kOptionStrings[] = {
    {"-h", Opt::kHelp},
    {"--help", Opt::kHelp},
    {"-l", Opt::kList},
    {"--list", Opt::kList},
    {"-m", Opt::kMetrics},
    {"--metrics", Opt::kMetrics},
    {"-i", Opt::kInclude},
    {"--include", Opt::kInclude},
    {"-e", Opt::kExclude},
    {"--exclude", Opt::kExclude},
    {"-t", Opt::kThreshold},
    {"--threshold", Opt::kThreshold},
    {"-d", Opt::kDepth},
    {"--depth", Opt::kDepth},
    {"-f", Opt::kFormat},
    {"--format", Opt::kFormat},
    {"--print-sorted", Opt::kPrintSorted},
    {"--diff-profile", Opt::kDiffProfile},
    {"-diff", Opt::kDiffProfile},
};

// Our own options (§11.7-§11.12). They are found only by their full spelling (or with
// "=VALUE"), never as prefixes, so that every abbreviation the reference accepts (--m, --de,
// --ex, --f, ...) keeps its meaning (§11.6).
constexpr OptionString kExtensionStrings[] = {
    {"--fail-above", Opt::kFailAbove}, {"--match", Opt::kMatch}, {"--export", Opt::kExport},
    {"--demangle", Opt::kDemangle},    {"--html", Opt::kHtml},   {"--speedscope", Opt::kSpeedscope},
    {"--merge", Opt::kMerge},
};

// Whether the option consumes a value (attached or the next argument). --demangle's and
// --merge's values are optional and only ever attached ("--demangle=short",
// "--merge=sum"), so they never take FILE (§11.9, §11.11).
bool TakesValue(Opt opt) {
  return opt != Opt::kHelp && opt != Opt::kList && opt != Opt::kPrintSorted &&
         opt != Opt::kDemangle && opt != Opt::kMerge;
}

// The action's name in messages: its option strings joined with '/'.
std::string_view ActionName(Opt opt) {
  switch (opt) {
    case Opt::kHelp: return "-h/--help";
    case Opt::kList: return "-l/--list";
    case Opt::kMetrics: return "-m/--metrics";
    case Opt::kInclude: return "-i/--include";
    case Opt::kExclude: return "-e/--exclude";
    case Opt::kThreshold: return "-t/--threshold";
    case Opt::kDepth: return "-d/--depth";
    case Opt::kFormat: return "-f/--format";
    case Opt::kPrintSorted: return "--print-sorted";
    case Opt::kDiffProfile: return "--diff-profile/-diff";
    case Opt::kFailAbove: return "--fail-above";
    case Opt::kMatch: return "--match";
    case Opt::kExport: return "--export";
    case Opt::kDemangle: return "--demangle";
    case Opt::kHtml: return "--html";
    case Opt::kSpeedscope: return "--speedscope";
    case Opt::kMerge: return "--merge";
  }
  return "";
}

Error ArgumentError(Opt opt, std::string_view message) {
  return Status::UsageError("argument " + std::string(ActionName(opt)) + ": " +
                            std::string(message));
}

const OptionString* FindExact(std::string_view text) {
  for (const OptionString& o : kOptionStrings) {
    if (o.text == text) return &o;
  }
  for (const OptionString& o : kExtensionStrings) {
    if (o.text == text) return &o;
  }
  return nullptr;
}

// One classified option argument. `known` is false for an unknown option (action None).
struct OptionTuple {
  bool known = false;
  Opt opt = Opt::kHelp;
  std::string_view option_string;
  std::optional<std::string> explicit_arg;
};

// argparse's _negative_number_matcher: '^-\d+$|^-\d*\.\d+$', where \d is any Unicode decimal
// digit and '$' also matches before a final '\n'.
bool LooksLikeNegativeNumber(std::string_view s) {
  if (s.empty() || s[0] != '-') return false;
  std::string_view body = s.substr(1);
  if (!body.empty() && body.back() == '\n') body.remove_suffix(1);
  const size_t dot = body.find('.');
  if (dot == std::string_view::npos) return IsPyDecimalDigits(body);
  const std::string_view whole = body.substr(0, dot);
  return (whole.empty() || IsPyDecimalDigits(whole)) && IsPyDecimalDigits(body.substr(dot + 1));
}

// argparse's _get_option_tuples.
std::vector<OptionTuple> GetOptionTuples(std::string_view arg) {
  std::vector<OptionTuple> result;
  if (arg.size() >= 2 && arg[0] == '-' && arg[1] == '-') {
    std::string_view prefix = arg;
    std::optional<std::string> explicit_arg;
    if (size_t eq = arg.find('='); eq != std::string_view::npos) {
      prefix = arg.substr(0, eq);
      explicit_arg = std::string(arg.substr(eq + 1));
    }
    for (const OptionString& o : kOptionStrings) {
      if (o.text.substr(0, prefix.size()) == prefix) {
        result.push_back({true, o.opt, o.text, explicit_arg});
      }
    }
  } else if (arg.size() >= 2 && arg[0] == '-') {
    std::string_view short_prefix = arg.substr(0, 2);
    for (const OptionString& o : kOptionStrings) {
      if (o.text == short_prefix) {
        result.push_back({true, o.opt, o.text, std::string(arg.substr(2))});
      } else if (o.text.substr(0, arg.size()) == arg) {
        result.push_back({true, o.opt, o.text, std::nullopt});
      }
    }
  }
  return result;
}

// argparse's _parse_optional: nullopt means a positional ('A'); an error is an ambiguous
// prefix.
Result<std::optional<OptionTuple>> ParseOptional(std::string_view arg) {
  using Out = std::optional<OptionTuple>;
  if (arg.empty() || arg[0] != '-') return Out();
  if (const OptionString* exact = FindExact(arg)) {
    return Out(OptionTuple{true, exact->opt, exact->text, std::nullopt});
  }
  if (arg.size() == 1) return Out();
  if (size_t eq = arg.find('='); eq != std::string_view::npos) {
    if (const OptionString* o = FindExact(arg.substr(0, eq))) {
      return Out(OptionTuple{true, o->opt, o->text, std::string(arg.substr(eq + 1))});
    }
  }
  std::vector<OptionTuple> tuples = GetOptionTuples(arg);
  if (tuples.size() > 1) {
    std::string matches;
    for (const OptionTuple& t : tuples) {
      if (!matches.empty()) matches += ", ";
      matches += t.option_string;
    }
    return Status::UsageError("ambiguous option: " + std::string(arg) + " could match " + matches);
  }
  if (tuples.size() == 1) return Out(tuples[0]);
  if (LooksLikeNegativeNumber(arg)) return Out();
  if (arg.find(' ') != std::string_view::npos) return Out();
  return Out(OptionTuple{false, Opt::kHelp, arg, std::nullopt});
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

// --demangle's optional value: absent means "full".
Status TakeDemangle(ViewerArgs& a, const std::string* value) {
  if (value == nullptr || *value == "full") {
    a.demangle = DemangleMode::kFull;
  } else if (*value == "short") {
    a.demangle = DemangleMode::kShort;
  } else {
    return ArgumentError(Opt::kDemangle,
                         "invalid choice: '" + *value + "' (choose from 'full', 'short')");
  }
  return Status();
}

struct ScanState {
  ViewerArgs args;
  std::optional<std::string> metrics_text;  // -m as given (last one wins)
  std::vector<std::string> unknown;         // unknown option strings, in order
  std::vector<std::string> positionals;
};

Status TakeMatch(ViewerArgs& args, const std::string& value) {
  if (value == "exact")
    args.match = MatchMode::kExact;
  else if (value == "normalized")
    args.match = MatchMode::kNormalized;
  else
    return ArgumentError(Opt::kMatch,
                         "invalid choice: '" + value + "' (choose from 'exact', 'normalized')");
  return Status();
}

// --merge's optional value: absent means "stats".
Status TakeMerge(ViewerArgs& args, const std::string* value) {
  if (value == nullptr || *value == "stats")
    args.merge = MergeMode::kStats;
  else if (*value == "sum")
    args.merge = MergeMode::kSum;
  else
    return ArgumentError(Opt::kMerge,
                         "invalid choice: '" + *value + "' (choose from 'stats', 'sum')");
  return Status();
}

Status TakeExport(ViewerArgs& args, const std::string& value) {
  if (!value.ends_with(".csv") && !value.ends_with(".jsonl")) {
    return ArgumentError(Opt::kExport, "FILE must end in .csv or .jsonl: '" + value + "'");
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

Status TakeFormat(ViewerArgs& args, const std::string& value) {
  static constexpr std::pair<std::string_view, NameFormat> kChoices[] = {
      {"full", NameFormat::kFull},
      {"file_function_line", NameFormat::kFileFunctionLine},
      {"function_line", NameFormat::kFunctionLine},
      {"file_function", NameFormat::kFileFunction}};
  for (const auto& [word, format] : kChoices) {
    if (value == word) {
      args.format = format;
      return Status();
    }
  }
  return ArgumentError(Opt::kFormat, "invalid choice: '" + value +
                                         "' (choose from 'full', 'file_function_line', "
                                         "'function_line', 'file_function')");
}

// take_action: converts and stores one option's value. Sets args.help and stops on -h.
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
    case Opt::kMatch: return TakeMatch(args, *value);
    case Opt::kDemangle: return TakeDemangle(args, value);
    case Opt::kExport: return TakeExport(args, *value);
    case Opt::kHtml:
    case Opt::kSpeedscope: return TakeOutputPath(args, opt, *value);
    case Opt::kMerge: return TakeMerge(args, value);
    case Opt::kThreshold: return TakeThreshold(args, *value);
    case Opt::kDepth: return TakeDepth(args, *value);
    case Opt::kFormat: return TakeFormat(args, *value);
  }
  return Status();
}

// consume_optional for the option at args[index]; returns the index after what it used.
Result<size_t> ConsumeOptional(ScanState& st, const std::vector<std::string>& args,
                               const std::vector<char>& pattern, size_t index, OptionTuple tuple) {
  if (!tuple.known) {
    st.unknown.push_back(args[index]);
    return index + 1;
  }
  // Collected first and taken afterwards, as argparse does: an error later in a cluster
  // (e.g. "-lx") wins over an earlier flag in it.
  std::vector<std::pair<Opt, std::optional<std::string>>> actions;
  size_t stop = index + 1;
  Opt opt = tuple.opt;
  std::string option_string(tuple.option_string);
  std::optional<std::string> explicit_arg = std::move(tuple.explicit_arg);
  while (true) {
    if (opt == Opt::kDemangle || opt == Opt::kMerge) {  // an optional value, attached or absent
      actions.emplace_back(opt, std::move(explicit_arg));
      break;
    }
    if (explicit_arg) {
      if (!TakesValue(opt) && option_string[1] != '-' && !explicit_arg->empty()) {
        // A single-dash flag with text attached: the text is more single-dash options.
        actions.emplace_back(opt, std::nullopt);
        std::string next = std::string("-") + (*explicit_arg)[0];
        const OptionString* o = FindExact(next);
        if (o == nullptr) {
          return ArgumentError(opt, "ignored explicit argument '" + *explicit_arg + "'");
        }
        std::string rest = explicit_arg->substr(1);
        opt = o->opt;
        option_string = next;
        if (rest.empty())
          explicit_arg.reset();
        else
          explicit_arg = std::move(rest);
      } else if (TakesValue(opt)) {
        actions.emplace_back(opt, std::move(explicit_arg));
        break;
      } else {
        return ArgumentError(opt, "ignored explicit argument '" + *explicit_arg + "'");
      }
    } else {
      if (TakesValue(opt)) {
        if (index + 1 >= args.size() || pattern[index + 1] != 'A') {
          return ArgumentError(opt, "expected one argument");
        }
        actions.emplace_back(opt, args[index + 1]);
        stop = index + 2;
      } else {
        actions.emplace_back(opt, std::nullopt);
      }
      break;
    }
  }
  for (auto& [action, value] : actions) {
    PROTON_RETURN_IF_ERROR(TakeAction(st, action, value ? &*value : nullptr));
    if (st.args.help) break;
  }
  return stop;
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

// Unknown options, then the FILE count: one, or several with --merge.
Status CheckPositionals(const ScanState& state) {
  if (!state.unknown.empty()) {
    std::string list;
    for (const std::string& unknown : state.unknown) {
      if (!list.empty()) list += ' ';
      list += unknown;
    }
    return Status::UsageError("unrecognized arguments: " + list);
  }
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
  // Pass 1: classify (argparse's arg_strings_pattern). After "--" everything is 'A'.
  std::vector<char> pattern(args.size(), 'A');
  std::vector<std::optional<OptionTuple>> tuples(args.size());
  size_t dash_dash = args.size();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") {
      pattern[i] = '-';
      dash_dash = i;
      break;
    }
    PROTON_ASSIGN_OR_RETURN(tuples[i], ParseOptional(args[i]));
    if (tuples[i]) pattern[i] = 'O';
  }
  // Pass 2: consume left to right.
  ScanState st;
  size_t i = 0;
  while (i < args.size()) {
    if (i == dash_dash) {  // "--" ends the options and is not itself an argument (§2.3)
      ++i;
      continue;
    }
    if (pattern[i] == 'O') {
      PROTON_ASSIGN_OR_RETURN(i, ConsumeOptional(st, args, pattern, i, std::move(*tuples[i])));
      if (st.args.help) return std::move(st.args);
    } else {
      st.positionals.push_back(args[i]);
      ++i;
    }
  }
  PROTON_RETURN_IF_ERROR(CheckAfterScan(st));
  return std::move(st.args);
}

}  // namespace proton::viewer
