// ViewerMain's handling of standard-output write errors (viewer.md §7.9): a full device is an
// error, a closed pipe stays quiet.
#include "viewer/cli/viewer_command.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <string>
#include <vector>

namespace proton::viewer {
namespace {

const std::string kCuda =
    std::string(PROTON_SOURCE_DIR) + "/tests/compat/viewer/profiles/cuda.json";

TEST(ViewerOutput, FullDeviceIsAnError) {
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  for (const std::vector<std::string>& argv :
       {std::vector<std::string>{"-m", "time/ns", kCuda}, {"-l", kCuda}}) {
    Result<int> r = ViewerMain(argv, fd, false);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().message(), "cannot write to standard output: No space left on device");
  }
  ::close(fd);
}

TEST(ViewerOutput, ClosedPipeIsQuiet) {
  std::signal(SIGPIPE, SIG_IGN);  // so that write() fails with EPIPE instead of killing us
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  Result<int> r = ViewerMain({"-m", "time/ns", kCuda}, fds[1], false);
  ::close(fds[1]);
  ASSERT_TRUE(r.ok()) << r.status().message();  // no message: a closed pipe is quiet
  EXPECT_EQ(*r, kClosedOutputStatus);           // with the reference's status 1 (§7.9)
}

}  // namespace
}  // namespace proton::viewer

namespace proton::viewer {
namespace {

// --export FILE.perfetto_trace through the command: the merged file is written, nothing is
// printed, and a relative-time input's warning is one "proton-viewer: warning:" line.
TEST(ViewerTraceExport, WritesTheFileAndWarnsOnStandardError) {
  char dir[] = "/tmp/proton_viewer_trace_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string trace = std::string(dir) + "/old.chrome_trace";
  const std::string out = std::string(dir) + "/all.perfetto_trace";
  {
    const int fd = ::open(trace.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const std::string text =
        R"({"displayTimeUnit":"us","traceEvents":[{"cat":"kernel","dur":1.0,"name":"k",)"
        R"("ph":"X","tid":7,"ts":0.0}]})";
    ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    ::close(fd);
  }
  const int out_fd = ::memfd_create("stdout", MFD_CLOEXEC);
  const int err_fd = ::memfd_create("stderr", MFD_CLOEXEC);
  Result<int> r = ViewerMain({"--export", out, trace}, out_fd, false, err_fd);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, 0);
  EXPECT_EQ(::lseek(out_fd, 0, SEEK_END), 0);
  char err[512] = {};
  ASSERT_GT(::pread(err_fd, err, sizeof err - 1, 0), 0);
  EXPECT_EQ(std::string(err), "proton-viewer: warning: '" + trace +
                                  "' has no absolute time (no baseTimeNanoseconds, or not on "
                                  "the REALTIME clock): it is placed at its own zero\n");
  struct stat st {};
  EXPECT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_GT(st.st_size, 0);
  ::close(out_fd);
  ::close(err_fd);
  ::unlink(trace.c_str());
  ::unlink(out.c_str());
  ::rmdir(dir);
}

}  // namespace
}  // namespace proton::viewer
