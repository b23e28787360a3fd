// What one proton-viewer run is asked to do (viewer.md §2), as typed options grouped by concern:
// what is read (InputOptions), how the tree is computed and shown (ViewOptions) and what is
// written (OutputOptions). The command line parser (viewer/cli/cli_args.h) and the Python API
// (src/python_viewer) fill them; each step takes only the part it reads, so that a printer or
// a filter cannot come to depend on, say, the list of FILEs. Kept apart from the parser so that
// the steps need not depend on it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace proton::viewer {

enum class NameFormat { kFull, kFileFunctionLine, kFunctionLine, kFileFunction };

// How --diff-profile pairs frames (§11.7): by stored names, or by normalised names.
enum class MatchMode { kExact, kNormalized };

// How Itanium C++ frame names are shown (§11.9): as stored, demangled, or demangled and
// reduced to the qualified base name.
enum class DemangleMode { kOff, kFull, kShort };

// --merge over several FILEs (§11.11): none, per-node statistics, or the sum.
enum class MergeMode { kNone, kStats, kSum };

// The profiles read: FILE (or several with --merge or --baseline) and --diff-profile's OTHER.
struct InputOptions {
  std::vector<std::string> files;      // every FILE, in order (one unless --merge/--baseline)
  MergeMode merge = MergeMode::kNone;  // --merge[=stats|sum]
  std::string diff_profile;            // "" = no diff
  // --baseline FILE, repeatable (§11.16): the other side of a comparison of medians, each
  // value as given (a file, or a pattern the command expands).
  std::vector<std::string> baselines;

  // The first FILE; the parser guarantees there is one.
  const std::string& file() const { return files.front(); }
};

// The columns, the filters and how frames are paired, named and printed.
struct ViewOptions {
  std::vector<std::string> metrics;  // -m items, trimmed; empty = no metrics
  std::string include;               // "" = not given (an empty value counts as not given)
  std::string exclude;
  bool has_threshold = false;  // -t given with a non-zero value (§5.1); finite when
                               // metrics are given (checked after the scan)
  double threshold = 0.0;
  std::string threshold_text;  // as typed, for "--threshold X removes every frame"
  int64_t depth = 100;
  NameFormat format = NameFormat::kFull;
  bool print_sorted = false;
  // Beyond the reference (§11.7, §11.9); matched by their full spelling only.
  MatchMode match = MatchMode::kExact;
  DemangleMode demangle = DemangleMode::kOff;  // --demangle[=full|short]
};

// What is written besides (or instead of) the printed tree, and the regression gate.
struct OutputOptions {
  bool list = false;  // -l: the metric names instead of the tree
  // Beyond the reference (§11.7-§11.12); matched by their full spelling only.
  bool has_fail_above = false;  // --fail-above PCT[,MIN]: the regression gate
  double fail_above_pct = 0.0;  // finite, >= 0
  double fail_above_min = 0.0;  // finite, >= 0
  std::string fail_above_text;  // as typed, for the offending-frame lines
  std::string export_path;      // --export FILE ("" = none): .csv, .jsonl, .sqlite, .perfetto_trace
  std::string html_path;        // --html FILE ("" = none): the interactive page (§11.12)
  std::string speedscope_path;  // --speedscope FILE ("" = none), not with a diff (§11.12)
  // --sql QUERY (§11.13): SQL, a named query or "list"; the result replaces the tree.
  bool has_sql = false;
  std::string sql;
  // --stragglers[=PCT] with --merge (§11.15): the report of each step's slowest rank instead
  // of the tree; a rank is slow in a step when more than PCT percent above its median.
  bool stragglers = false;
  double stragglers_pct = 5.0;
  // --trace-report (§11.18): the FILEs are traces; their reports instead of a tree.
  bool trace_report = false;
};

// --follow RUN (§11.14): the live view of a periodic-flushing run, instead of a FILE.
struct LiveOptions {
  std::string run;  // "" = not following
  bool has_timeout = false;
  double timeout_s = 0.0;    // --follow-timeout S: finite, > 0
  std::string timeout_text;  // S as typed
};

struct ViewerOptions {
  bool help = false;  // -h was reached: print HelpText() and exit 0; nothing else is valid
  InputOptions input;
  ViewOptions view;
  OutputOptions output;
  LiveOptions live;
};

}  // namespace proton::viewer
