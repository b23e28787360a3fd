// Tests of running the child: exit status, death by signal, exec failure, the root pid
// variable, and forwarding of a signal sent to the launcher alone (profiler.md §2.10).
#include "launcher/child.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace proton::launcher {
namespace {

ChildSpec Shell(const std::string& script) {
  return ChildSpec{"/bin/sh", {"/bin/sh", "-c", script}, {"PATH=/bin:/usr/bin"}, ""};
}

TEST(Child, ExitStatus) {
  ChildOutcome outcome = RunChild(Shell("exit 7"));
  ASSERT_TRUE(std::holds_alternative<ChildExited>(outcome));
  EXPECT_EQ(std::get<ChildExited>(outcome).status, 7);
}

TEST(Child, DeathBySignal) {
  ChildOutcome outcome = RunChild(Shell("kill -TERM $$"));
  ASSERT_TRUE(std::holds_alternative<ChildSignaled>(outcome));
  EXPECT_EQ(std::get<ChildSignaled>(outcome).signal, SIGTERM);
}

TEST(Child, ExecFailure) {
  ChildOutcome outcome = RunChild(ChildSpec{"/nonexistent/x", {"x"}, {}, ""});
  ASSERT_TRUE(std::holds_alternative<ChildExecFailed>(outcome));
  EXPECT_EQ(std::get<ChildExecFailed>(outcome).error, ENOENT);
}

TEST(Child, RootPidVariableIsTheChildsPid) {
  char path[] = "/tmp/proton-child-test.XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  ChildSpec spec = Shell(std::string("echo \"$$ $ROOT_PID\" > ") + path);
  spec.env.push_back("ROOT_PID=stale");
  spec.root_pid_variable = "ROOT_PID";
  ChildOutcome outcome = RunChild(spec);
  ASSERT_TRUE(std::holds_alternative<ChildExited>(outcome));
  std::ifstream in(path);
  std::string shell_pid, root_pid;
  in >> shell_pid >> root_pid;
  unlink(path);
  EXPECT_FALSE(shell_pid.empty());
  EXPECT_EQ(shell_pid, root_pid);
}

TEST(Child, ForwardsSignalsSentToTheLauncher) {
  // The child waits for SIGTERM; a thread sends SIGTERM to this process (SI_USER), which
  // forwards it. Without forwarding the child would run for 30 s and exit 0.
  std::thread sender([] {
    usleep(300 * 1000);
    kill(getpid(), SIGTERM);
  });
  ChildOutcome outcome = RunChild(Shell("exec sleep 30"));
  sender.join();
  ASSERT_TRUE(std::holds_alternative<ChildSignaled>(outcome));
  EXPECT_EQ(std::get<ChildSignaled>(outcome).signal, SIGTERM);
}

TEST(Child, IgnoredSignalsStayIgnored) {
  // `nohup proton …`: SIGHUP ignored in the launcher stays ignored in the target.
  struct sigaction old {};
  signal(SIGHUP, SIG_IGN);
  ChildOutcome outcome = RunChild(Shell("kill -HUP $$; exit 4"));
  sigaction(SIGHUP, nullptr, &old);
  signal(SIGHUP, SIG_DFL);
  ASSERT_TRUE(std::holds_alternative<ChildExited>(outcome));
  EXPECT_EQ(std::get<ChildExited>(outcome).status, 4);
  EXPECT_EQ(old.sa_handler, SIG_IGN);  // and the launcher's own disposition is restored
}

}  // namespace
}  // namespace proton::launcher
