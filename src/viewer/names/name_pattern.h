// -i/-e patterns (viewer.md §5.2): Python `re.match` semantics (a match of a prefix of the
// name, case-sensitive, `.` not matching a newline, `\Z` = end of string) on top of PCRE2
// (8-bit, UTF + UCP). The pattern is translated from Python syntax to PCRE2 syntax, and
// constructs that Python would reject, or that only PCRE2 knows, are refused as invalid.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "util/status.h"

namespace proton::viewer {

class NamePattern {
 public:
  // `option` is "--include" or "--exclude", used in the error messages:
  //   curly braces are not supported in --include: 'P'
  //   double quotes are not supported in --include: 'P'
  //   invalid regular expression in --include: 'P'
  static Result<NamePattern> Compile(std::string_view pattern, std::string_view option);

  // Whether the pattern matches a prefix of `name` (Python's re.match(pattern, name)).
  // Backtracking is bounded: each name may take kFreeSteps PCRE2 match steps, and steps
  // beyond that come out of one budget of kBudgetSteps for the pattern's whole run, so a
  // catastrophic pattern costs at most (names x kFreeSteps + about kBudgetSteps) steps. An
  // engine error, the budget running out included, is an error naming the pattern and the
  // frame, never a silent "no match":
  //   cannot match --include 'P' against frame 'N': too much backtracking (over S steps)
  //   cannot match --include 'P' against frame 'N': <PCRE2's message>
  Result<bool> Matches(std::string_view name);

  static constexpr uint32_t kFreeSteps = 10'000;
  static constexpr uint64_t kBudgetSteps = 100'000'000;

  NamePattern(NamePattern&&) noexcept;
  NamePattern& operator=(NamePattern&&) noexcept;
  ~NamePattern();

 private:
  struct Impl;
  explicit NamePattern(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The PCRE2 pattern for a Python pattern, or an error message when the pattern is not a valid
// Python regular expression or uses a construct we do not support. Exposed for tests.
Result<std::string> TranslatePythonRegex(std::string_view pattern);

}  // namespace proton::viewer
