// Running a check in a forked child, for the unit tests of fork handling (fork_guard,
// the runtime's fork child action).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

namespace proton::test {

// ThreadSanitizer reports the parent's threads as leaked in every forked child and fails it:
// fork tests skip themselves there and run in the other builds.
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kUnderTsan = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool kUnderTsan = true;
#else
inline constexpr bool kUnderTsan = false;
#endif
#else
inline constexpr bool kUnderTsan = false;
#endif

// The exit status of a forked child that runs `body` (its return value), or -1.
template <typename Body>
int InChild(Body body) {
  pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

}  // namespace proton::test
