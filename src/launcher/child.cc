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
#include <cstdlib>
#include <cstdio>
#include <cstring>

namespace proton::launcher {

namespace {

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

volatile sig_atomic_t g_child_pid = 0;

void ForwardSignal(int signal_number, siginfo_t* info, void* /*context*/) {
  const int saved_errno = errno;
  // Terminal-generated signals (SI_KERNEL) already reached the child through the process
  // group; signals from the child itself are not echoed back.
  const bool sent_to_us = info != nullptr && (info->si_code == SI_USER || info->si_code == SI_QUEUE);
  const pid_t child = static_cast<pid_t>(g_child_pid);
  if (sent_to_us && child > 0 && info->si_pid != child) kill(child, signal_number);
  errno = saved_errno;
}

// Writes the decimal pid after the '=' of `entry` (capacity known to be enough).
void WritePid(char* entry, size_t name_length, pid_t pid) {
  char digits[24];
  int n = 0;
  auto value = static_cast<unsigned long>(pid);
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  char* out = entry + name_length + 1;
  while (n > 0) *out++ = digits[--n];
  *out = '\0';
}

[[noreturn]] void ExecInChild(const ChildSpec& spec, std::vector<char*>& argv,
                              std::vector<char*>& envp, char* root_entry, int error_pipe,
                              const sigset_t& original_mask, const bool* installed) {
  // The child gets the dispositions the launcher was started with: default where we forward,
  // and ignored signals stay ignored (`nohup proton …`, background jobs).
  for (size_t i = 0; i < 4; ++i) {
    if (installed[i]) signal(kForwarded[i], SIG_DFL);
  }
  sigprocmask(SIG_SETMASK, &original_mask, nullptr);
  if (root_entry != nullptr) WritePid(root_entry, spec.root_pid_variable.size(), getpid());
  execve(spec.executable.c_str(), argv.data(), envp.data());
  int error = errno;
  ssize_t ignored = write(error_pipe, &error, sizeof(error));
  (void)ignored;
  _exit(127);
}

}  // namespace

ChildOutcome RunChild(const ChildSpec& spec) {
  std::vector<std::string> env_storage = spec.env;
  std::vector<char> root_entry;
  if (!spec.root_pid_variable.empty()) {
    root_entry.assign(spec.root_pid_variable.begin(), spec.root_pid_variable.end());
    root_entry.push_back('=');
    root_entry.resize(root_entry.size() + 24, '\0');
  }
  std::vector<char*> argv;
  for (const std::string& arg : spec.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (std::string& entry : env_storage) {
    if (!spec.root_pid_variable.empty() &&
        entry.compare(0, spec.root_pid_variable.size() + 1, spec.root_pid_variable + "=") == 0) {
      continue;  // replaced by the child's own value
    }
    envp.push_back(entry.data());
  }
  if (!root_entry.empty()) envp.push_back(root_entry.data());
  envp.push_back(nullptr);

  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return ChildExecFailed{errno};

  // Signals stay blocked across fork so none is lost between fork and recording the pid.
  sigset_t forwarded, original_mask;
  sigemptyset(&forwarded);
  for (int sig : kForwarded) sigaddset(&forwarded, sig);
  sigprocmask(SIG_BLOCK, &forwarded, &original_mask);
  struct sigaction action {};
  action.sa_sigaction = ForwardSignal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  struct sigaction previous[4];
  bool installed[4] = {false, false, false, false};
  for (size_t i = 0; i < 4; ++i) {
    sigaction(kForwarded[i], nullptr, &previous[i]);
    const bool ignored = (previous[i].sa_flags & SA_SIGINFO) == 0 && previous[i].sa_handler == SIG_IGN;
    if (!ignored) installed[i] = sigaction(kForwarded[i], &action, nullptr) == 0;
  }

  pid_t pid = vfork();
  if (pid == 0) {
    ExecInChild(spec, argv, envp, root_entry.empty() ? nullptr : root_entry.data(), pipe_fds[1],
                original_mask, installed);
  }
  const int fork_error = errno;
  close(pipe_fds[1]);
  if (pid > 0) g_child_pid = pid;
  sigprocmask(SIG_SETMASK, &original_mask, nullptr);
  if (pid < 0) {
    close(pipe_fds[0]);
    for (size_t i = 0; i < 4; ++i) {
      if (installed[i]) sigaction(kForwarded[i], &previous[i], nullptr);
    }
    return ChildExecFailed{fork_error};
  }

  int exec_error = 0;
  ssize_t n;
  do {
    n = read(pipe_fds[0], &exec_error, sizeof(exec_error));
  } while (n < 0 && errno == EINTR);
  close(pipe_fds[0]);

  int status = 0;
  pid_t waited;
  do {
    waited = waitpid(pid, &status, 0);
  } while (waited < 0 && errno == EINTR);
  g_child_pid = 0;
  for (size_t i = 0; i < 4; ++i) {
    if (installed[i]) sigaction(kForwarded[i], &previous[i], nullptr);
  }

  if (n == static_cast<ssize_t>(sizeof(exec_error))) return ChildExecFailed{exec_error};
  if (waited < 0) return ChildExecFailed{errno};
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
