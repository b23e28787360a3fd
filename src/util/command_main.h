// The one place where a command's errors become output: "<program>: error: <message>" on
// stderr, exit status 1, or for usage errors the usage block first and exit status 2.
// Exceptions that escape the body (std::bad_alloc, anything else) get the same one-line
// treatment, so no command ever ends in std::terminate or a stack trace.
#pragma once

#include <functional>
#include <string_view>

#include "util/status.h"

namespace proton {

// Runs `body` and turns its outcome into an exit status. `body` returns the exit status to
// use on success (normally 0) or an error Status.
int RunCommand(std::string_view program, std::string_view usage,
               const std::function<Result<int>()>& body);

// Writes "<program>: error: <message>\n" to stderr (preceded by `usage` for usage errors) and
// returns the matching exit status.
int ReportError(std::string_view program, std::string_view usage, const Status& status);

}  // namespace proton
