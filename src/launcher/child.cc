// See child.h. The child is started with vfork(): it shares the launcher's memory until exec,
// so nothing is copied (fork's page-table copy is a measurable part of the command's start-up
// cost on virtual machines). Between vfork and exec the child only makes system calls and
// formats its pid into a buffer prepared before vfork; it never returns from RunChild.
#include "launcher/child.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace proton::launcher {

namespace {

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

volatile sig_atomic_t g_child_pid = 0;

void ForwardSignal(int signal_number, siginfo_t* info, void* /*context*/) {
  const int saved_errno = errno;
  // Terminal-generated signals (SI_KERNEL) already reached the child through the process
  // group; signals from the child itself are not echoed back.
  const bool sent_to_us =
      info != nullptr && (info->si_code == SI_USER || info->si_code == SI_QUEUE);
  const pid_t child = static_cast<pid_t>(g_child_pid);
  if (sent_to_us && child > 0 && info->si_pid != child) kill(child, signal_number);
  errno = saved_errno;
}

// Writes the decimal pid after the '=' of `entry` (capacity known to be enough).
void WritePid(char* entry, size_t name_length, pid_t pid) {
  char digits[24];
  int digit_count = 0;
  auto value = static_cast<unsigned long>(pid);
  do {
    digits[digit_count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  char* out = entry + name_length + 1;
  while (digit_count > 0) *out++ = digits[--digit_count];
  *out = '\0';
}

constexpr size_t kForwardedCount = sizeof(kForwarded) / sizeof(kForwarded[0]);

// What execve needs, built before vfork: the child may not allocate.
struct ExecArguments {
  std::vector<std::string> env_storage;  // envp points into these strings
  std::vector<char> root_entry;          // "NAME=" plus room for the child's pid; empty if none
  std::vector<char*> argv;
  std::vector<char*> envp;

  char* root_entry_or_null() { return root_entry.empty() ? nullptr : root_entry.data(); }
};

// Filled in place: envp and argv point into storage that must not move afterwards.
void PrepareExecArguments(const ChildSpec& spec, ExecArguments& arguments) {
  arguments.env_storage = spec.env;
  if (!spec.root_pid_variable.empty()) {
    arguments.root_entry.assign(spec.root_pid_variable.begin(), spec.root_pid_variable.end());
    arguments.root_entry.push_back('=');
    arguments.root_entry.resize(arguments.root_entry.size() + 24, '\0');
  }
  for (const std::string& arg : spec.argv) arguments.argv.push_back(const_cast<char*>(arg.c_str()));
  arguments.argv.push_back(nullptr);
  for (std::string& entry : arguments.env_storage) {
    if (!spec.root_pid_variable.empty() &&
        entry.compare(0, spec.root_pid_variable.size() + 1, spec.root_pid_variable + "=") == 0) {
      continue;  // replaced by the child's own value
    }
    arguments.envp.push_back(entry.data());
  }
  if (!arguments.root_entry.empty()) arguments.envp.push_back(arguments.root_entry.data());
  arguments.envp.push_back(nullptr);
}

// The forwarding handlers for kForwarded and what they replaced. Signals stay blocked from
// Install until the pid is recorded, so none is lost between fork and that moment.
struct SignalForwarding {
  sigset_t original_mask;
  struct sigaction previous[kForwardedCount];
  bool installed[kForwardedCount] = {};

  void BlockAndInstall() {
    sigset_t forwarded;
    sigemptyset(&forwarded);
    for (int signal_number : kForwarded) sigaddset(&forwarded, signal_number);
    sigprocmask(SIG_BLOCK, &forwarded, &original_mask);
    struct sigaction action {};
    action.sa_sigaction = ForwardSignal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (size_t index = 0; index < kForwardedCount; ++index) {
      sigaction(kForwarded[index], nullptr, &previous[index]);
      // Ignored signals stay ignored (`nohup proton …`, background jobs).
      const bool ignored =
          (previous[index].sa_flags & SA_SIGINFO) == 0 && previous[index].sa_handler == SIG_IGN;
      if (!ignored) installed[index] = sigaction(kForwarded[index], &action, nullptr) == 0;
    }
  }

  void Unblock() const { sigprocmask(SIG_SETMASK, &original_mask, nullptr); }

  void RestoreHandlers() const {
    for (size_t index = 0; index < kForwardedCount; ++index) {
      if (installed[index]) sigaction(kForwarded[index], &previous[index], nullptr);
    }
  }
};

[[noreturn]] void ExecInChild(const ChildSpec& spec, ExecArguments& arguments, int error_pipe,
                              const SignalForwarding& forwarding) {
  // The child gets the dispositions the launcher was started with: default where we forward,
  // and ignored signals stay ignored.
  for (size_t index = 0; index < kForwardedCount; ++index) {
    if (forwarding.installed[index]) signal(kForwarded[index], SIG_DFL);
  }
  sigprocmask(SIG_SETMASK, &forwarding.original_mask, nullptr);
  if (char* root_entry = arguments.root_entry_or_null(); root_entry != nullptr) {
    WritePid(root_entry, spec.root_pid_variable.size(), getpid());
  }
  execve(spec.executable.c_str(), arguments.argv.data(), arguments.envp.data());
  int error = errno;
  ssize_t ignored = write(error_pipe, &error, sizeof(error));
  (void)ignored;
  _exit(127);
}

// The child's execve errno when exec failed (the pipe closes on a successful exec).
std::optional<int> ReadExecError(int read_end) {
  int exec_error = 0;
  ssize_t read_size;
  do {
    read_size = read(read_end, &exec_error, sizeof(exec_error));
  } while (read_size < 0 && errno == EINTR);
  close(read_end);
  if (read_size == static_cast<ssize_t>(sizeof(exec_error))) return exec_error;
  return std::nullopt;
}

pid_t WaitForChild(pid_t pid, int* status) {
  pid_t waited;
  do {
    waited = waitpid(pid, status, 0);
  } while (waited < 0 && errno == EINTR);
  return waited;
}

}  // namespace

ChildOutcome RunChild(const ChildSpec& spec) {
  ExecArguments arguments;
  PrepareExecArguments(spec, arguments);
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return ChildExecFailed{errno};
  SignalForwarding forwarding;
  forwarding.BlockAndInstall();

  // vfork stays in this function: the child shares this frame until it execs or exits.
  pid_t pid = vfork();
  if (pid == 0) ExecInChild(spec, arguments, pipe_fds[1], forwarding);
  const int fork_error = errno;
  close(pipe_fds[1]);
  if (pid > 0) g_child_pid = pid;
  forwarding.Unblock();
  if (pid < 0) {
    close(pipe_fds[0]);
    forwarding.RestoreHandlers();
    return ChildExecFailed{fork_error};
  }

  const std::optional<int> exec_error = ReadExecError(pipe_fds[0]);
  int status = 0;
  const pid_t waited = WaitForChild(pid, &status);
  const int wait_error = errno;
  g_child_pid = 0;
  forwarding.RestoreHandlers();

  if (exec_error.has_value()) return ChildExecFailed{*exec_error};
  if (waited < 0) return ChildExecFailed{wait_error};
  if (WIFSIGNALED(status)) return ChildSignaled{WTERMSIG(status)};
  return ChildExited{WIFEXITED(status) ? WEXITSTATUS(status) : 1};
}

void ExitLike(const ChildOutcome& outcome) {
  if (const auto* exited = std::get_if<ChildExited>(&outcome)) std::exit(exited->status);
  if (const auto* signaled = std::get_if<ChildSignaled>(&outcome)) {
    const int sig = signaled->signal;
    std::fflush(nullptr);
    struct rlimit no_core {};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
    raise(sig);
    std::_Exit(128 + sig);  // signals whose default action does not terminate
  }
  std::exit(127);
}

}  // namespace proton::launcher
