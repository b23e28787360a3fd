// Target classification (profiler.md §2.3): decides how the first positional argument is run
// (pytest, native executable, non-Python #! script, Python script, PATH command) and which
// Python interpreter runs Python targets. Pure decisions over the file system and a given
// environment; nothing is started here.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace proton::launcher {

enum class TargetKind {
  kPytest,  // rule 1: <python> -m pytest <rest>
  kNative,  // rules 2, 3, 5: executed directly
  kScript,  // rule 4: <python> <target> <rest>
};

struct TargetPlan {
  TargetKind kind = TargetKind::kNative;
  std::string executable;         // path given to execve
  std::vector<std::string> argv;  // full argv, argv[0] included
};

// A launcher error with its exit status (126 not executable, 127 not found).
struct TargetError {
  int exit_status = 127;
  std::string message;
};

using EnvLookup = std::function<std::optional<std::string>(std::string_view)>;

// Classifies `target` (non-empty: the target and its arguments). `env` gives PROTON_PYTHON and
// PATH.
std::variant<TargetPlan, TargetError> ClassifyTarget(const std::vector<std::string>& target,
                                                     const EnvLookup& env);

// The interpreter for Python targets: PROTON_PYTHON, else python3, else python on PATH.
std::optional<std::string> FindPython(const EnvLookup& env);

// Searches PATH like execvp: the first regular executable file named `name`. Sets
// `*found_not_executable` when a non-executable file of that name was seen.
std::optional<std::string> SearchPath(std::string_view name, const EnvLookup& env,
                                      bool* found_not_executable = nullptr);

// For a file starting with "#!": true when its interpreter (or env's command) is Python.
bool ShebangIsPython(std::string_view first_line);

}  // namespace proton::launcher
