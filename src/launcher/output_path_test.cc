// Tests of the output path check made before the target starts (profiler.md §2.9).
#include "launcher/output_path.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace proton::launcher {
namespace {

class OutputPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/proton-output-path-test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { EXPECT_EQ(std::system(("rm -rf " + dir_).c_str()), 0); }

  std::string dir_;
};

TEST_F(OutputPathTest, WritableFoldersPass) {
  EXPECT_EQ(OutputPathError(dir_ + "/x"), std::nullopt);
  // Missing folders are created by the core (D4): their nearest existing ancestor decides.
  EXPECT_EQ(OutputPathError(dir_ + "/new/deeper/x"), std::nullopt);
}

TEST_F(OutputPathTest, FileInTheWay) {
  std::ofstream(dir_ + "/taken") << "x";
  EXPECT_EQ(OutputPathError(dir_ + "/taken/x"),
            "cannot write profiles to " + dir_ + "/taken/: Not a directory");
  EXPECT_EQ(OutputPathError(dir_ + "/taken/sub/x"),
            "cannot write profiles to " + dir_ + "/taken/sub/: Not a directory");
}

TEST_F(OutputPathTest, NoWritePermission) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes regardless of the mode bits";
  ASSERT_EQ(mkdir((dir_ + "/locked").c_str(), 0555), 0);
  EXPECT_EQ(OutputPathError(dir_ + "/locked/new/x"),
            "cannot write profiles to " + dir_ + "/locked/new/: Permission denied");
}

TEST_F(OutputPathTest, NewlineRefused) {
  EXPECT_EQ(OutputPathError(dir_ + "/a\nb"), "profile paths cannot hold a newline: " + dir_ +
                                                 "/a\\nb (choose another name with -n)");
}

}  // namespace
}  // namespace proton::launcher
