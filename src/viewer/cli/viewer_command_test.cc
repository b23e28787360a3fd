// ViewerMain's handling of standard-output write errors (viewer.md §7.9): a full device is an
// error, a closed pipe stays quiet.
#include "viewer/cli/viewer_command.h"

#include <fcntl.h>
#include <gtest/gtest.h>
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
