// Tests of per-process file names, rank claims and the run record (profiler.md §2.9).
#include "core/cli/output_naming.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace proton::cli {
namespace {

TEST(Naming, Compose) {
  auto path = [](std::string_view name, bool root, std::optional<long> rank, bool claimed) {
    return ComposeOutputPath(name, "hatchet", root, rank, claimed, 77).path;
  };
  EXPECT_EQ(path("/w/p", true, std::nullopt, false), "/w/p.hatchet");
  EXPECT_EQ(path("/w/p", false, std::nullopt, false), "/w/p.pid77.hatchet");
  EXPECT_EQ(path("/w/p", false, 1, true), "/w/p.rank1.hatchet");
  EXPECT_EQ(path("/w/p", true, 0, true), "/w/p.rank0.hatchet");
  EXPECT_EQ(path("/w/p", false, 1, false), "/w/p.rank1.pid77.hatchet");
  EXPECT_EQ(path("/w/p.part_0", false, 3, true), "/w/p.rank3.part_0.hatchet");
  EXPECT_EQ(path("/w/p.part_12", false, std::nullopt, false), "/w/p.pid77.part_12.hatchet");
  EXPECT_EQ(path("/w/p.part_x", false, std::nullopt, false), "/w/p.part_x.pid77.hatchet");
  EXPECT_EQ(ComposeOutputPath("/w/p", "chrome_trace", true, std::nullopt, false, 1).kind, "root");
  EXPECT_EQ(ComposeOutputPath("/w/p", "hatchet", false, std::nullopt, false, 1).kind, "pid");
  EXPECT_EQ(ComposeOutputPath("/w/p", "hatchet", false, 2, false, 1).kind, "rank");
}

class RunDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/proton-naming-test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { EXPECT_EQ(std::system(("rm -rf " + dir_).c_str()), 0); }
  std::string dir_;
};

TEST_F(RunDirTest, ClaimsAreExclusiveAcrossProcesses) {
  EXPECT_TRUE(ClaimRankName(dir_, 1, 100));
  EXPECT_TRUE(ClaimRankName(dir_, 1, 100));   // the owner again
  EXPECT_FALSE(ClaimRankName(dir_, 1, 101));  // a second process with RANK=1
  EXPECT_TRUE(ClaimRankName(dir_, 2, 101));
  EXPECT_TRUE(ClaimRankName("", 1, 5));  // no run directory

  // Eight processes race for rank 7: exactly one wins.
  std::vector<pid_t> children;
  for (int i = 0; i < 8; ++i) {
    pid_t pid = fork();
    if (pid == 0) _exit(ClaimRankName(dir_, 7, static_cast<long>(getpid())) ? 0 : 1);
    children.push_back(pid);
  }
  int winners = 0;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) ++winners;
  }
  EXPECT_EQ(winners, 1);
}

TEST_F(RunDirTest, RecordLines) {
  RecordOutputFile(dir_, "root", 10, "/w/p.hatchet");
  RecordOutputFile(dir_, "pid", 11, "/w/p.pid11.hatchet");
  RecordOutputFile("", "pid", 12, "/nowhere");
  std::ifstream in(dir_ + "/files");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "root\t10\t/w/p.hatchet\npid\t11\t/w/p.pid11.hatchet\n");
}

}  // namespace
}  // namespace proton::cli
