// See signal_writer.h. Thread: the handler runs on any thread and only write()s one byte; the
// rest runs on the writer thread.
#include "core/cli/signal_writer.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>

namespace proton::cli {

namespace {

// The last five are faults and aborts: the thread that raised one cannot go on, so it waits in
// the handler while the writer thread writes, and the process then dies by the signal.
constexpr int kSignals[] = {SIGTERM, SIGHUP, SIGQUIT, SIGINT, SIGABRT,
                            SIGSEGV, SIGBUS, SIGFPE,  SIGILL};
constexpr size_t kSignalCount = sizeof(kSignals) / sizeof(kSignals[0]);

int g_pipe[2] = {-1, -1};
bool g_installed[kSignalCount] = {};
std::atomic<bool> g_started{false};
std::atomic<int> g_grace_seconds{10};
std::function<void()>* g_write_profile = nullptr;
// The first signal the handler saw (0: none); lock-free, so the handler may store it.
std::atomic<int> g_received{0};
static_assert(std::atomic<int>::is_always_lock_free);

bool IsFault(int signal_number) {
  return signal_number == SIGABRT || signal_number == SIGSEGV || signal_number == SIGBUS ||
         signal_number == SIGFPE || signal_number == SIGILL;
}

void Handler(int signal_number) {
  const int saved = errno;
  int none = 0;
  g_received.compare_exchange_strong(none, signal_number);
  unsigned char byte = static_cast<unsigned char>(signal_number);
  const bool woken = write(g_pipe[1], &byte, 1) == 1;
  if (IsFault(signal_number)) {
    // Returning would run the faulting instruction again (or let abort() end the process)
    // before the profile is written: wait for the writer thread to end the process. Without
    // a writer, the default action comes back and the fault happens again, fatally.
    if (!woken) {
      signal(signal_number, SIG_DFL);
      errno = saved;
      return;
    }
    for (;;) pause();
  }
  errno = saved;
}

[[noreturn]] void DieBy(int signal_number) {
  signal(signal_number, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  kill(getpid(), signal_number);
  // A process-directed signal is delivered to some thread that does not block it; wait.
  for (;;) pause();
}

void WriterLoop(int read_fd) {
  // The handler may run on any thread; the writer itself keeps the signals blocked so it is
  // never interrupted while writing.
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kSignals) sigaddset(&set, sig);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  unsigned char byte = 0;
  for (;;) {
    ssize_t n = read(read_fd, &byte, 1);
    if (n == 1) break;
    if (n < 0 && errno == EINTR) continue;
    return;  // pipe closed
  }
  const int signal_number = byte;
  const int grace = g_grace_seconds.load();
  std::thread([signal_number, grace] {
    std::this_thread::sleep_for(std::chrono::seconds(grace));
    DieBy(signal_number);  // the write hung: die without a file
  }).detach();
  if (g_write_profile != nullptr && *g_write_profile) (*g_write_profile)();
  DieBy(signal_number);
}

void StartWriterLocked() {
  if (pipe2(g_pipe, O_CLOEXEC) != 0) return;
  std::thread(WriterLoop, g_pipe[0]).detach();
  for (size_t i = 0; i < kSignalCount; ++i) {
    struct sigaction current {};
    if (sigaction(kSignals[i], nullptr, &current) != 0) continue;
    const bool is_default = (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_DFL;
    if (!is_default) continue;  // the program's own handler (or SIG_IGN) is respected
    struct sigaction action {};
    action.sa_handler = Handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    g_installed[i] = sigaction(kSignals[i], &action, nullptr) == 0;
  }
}

}  // namespace

int InstallSignalWriter(std::function<void()> write_profile) {
  if (g_started.exchange(true)) return 0;
  g_write_profile = new std::function<void()>(std::move(write_profile));
  StartWriterLocked();
  int count = 0;
  for (bool installed : g_installed) count += installed ? 1 : 0;
  return count;
}

void SignalWriterAfterForkChild() {
  if (!g_started.load()) return;
  for (size_t i = 0; i < kSignalCount; ++i) {
    if (g_installed[i]) signal(kSignals[i], SIG_DFL);
    g_installed[i] = false;
  }
  g_received.store(0);
  close(g_pipe[0]);
  close(g_pipe[1]);
  g_pipe[0] = g_pipe[1] = -1;
  StartWriterLocked();
}

void SetSignalGraceSeconds(int seconds) { g_grace_seconds.store(seconds); }

void AwaitDeathIfSignalled() {
  if (g_received.load() == 0) return;
  // The writer thread re-raises the signal once the profile is written (or the grace timeout
  // does); until then this thread must not finish the process's exit.
  for (;;) pause();
}

}  // namespace proton::cli
