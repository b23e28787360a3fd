// What one proton-viewer run is asked to do (viewer.md §2): the options of the command line,
// filled by the parser (viewer/cli/cli_args.h) or by the Python API (src/python_viewer), and
// read by every step. Kept apart from the parser so that the steps need not depend on it.
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

struct ViewerArgs {
  bool help = false;  // -h was reached: print HelpText() and exit 0; nothing else is valid
  bool list = false;
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
  std::string diff_profile;  // "" = no diff
  // Beyond the reference (§11.7-§11.12); matched by their full spelling only.
  bool has_fail_above = false;  // --fail-above PCT[,MIN]: the regression gate
  double fail_above_pct = 0.0;  // finite, >= 0
  double fail_above_min = 0.0;  // finite, >= 0
  std::string fail_above_text;  // as typed, for the offending-frame lines
  MatchMode match = MatchMode::kExact;
  std::string export_path;                     // --export FILE ("" = none); ends in .csv or .jsonl
  DemangleMode demangle = DemangleMode::kOff;  // --demangle[=full|short]
  std::string html_path;               // --html FILE ("" = none): the interactive page (§11.12)
  std::string speedscope_path;         // --speedscope FILE ("" = none), not with a diff (§11.12)
  MergeMode merge = MergeMode::kNone;  // --merge[=stats|sum]
  std::string file;                    // the first FILE
  std::vector<std::string> files;      // every FILE, in order (one unless --merge)
};

}  // namespace proton::viewer
