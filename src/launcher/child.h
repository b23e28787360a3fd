// Starting the target as a child process, forwarding signals to it and waiting for it
// (profiler.md §2.10). The launcher stays in the child's process group, so terminal signals
// reach both; only signals sent to the launcher alone (kill(), si_code SI_USER/SI_QUEUE) are
// forwarded.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace proton::launcher {

struct ChildExited {
  int status = 0;
};
struct ChildSignaled {
  int signal = 0;
};
// exec failed in the child (errno value).
struct ChildExecFailed {
  int error = 0;
};
using ChildOutcome = std::variant<ChildExited, ChildSignaled, ChildExecFailed>;

struct ChildSpec {
  std::string executable;
  std::vector<std::string> argv;
  std::vector<std::string> env;  // "KEY=value"
  // When non-empty, the child adds "<root_pid_variable>=<its pid>" before exec.
  std::string root_pid_variable;
};

// Runs the child to completion. Installs the forwarding handlers for SIGINT, SIGTERM, SIGHUP
// and SIGQUIT for the duration of the call. Returns ChildExecFailed with errno when fork
// itself fails, too.
ChildOutcome RunChild(const ChildSpec& spec);

// Ends the launcher like the child ended: exit(status), or death by the same signal (core
// dumps disabled so the launcher leaves none), falling back to exit(128 + signal).
[[noreturn]] void ExitLike(const ChildOutcome& outcome);

}  // namespace proton::launcher
