// Tests of the public API's own checks (api.cc): a session name is a path, so one with a NUL
// byte is refused (profiler.md §1.2) instead of writing a file named after its first part.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/testing/test_util.h"
#include "proton/proton.h"

namespace proton {
namespace {

namespace fs = std::filesystem;

TEST(ApiName, EmbeddedNulIsOneValueErrorAndWritesNothing) {
  test::ResetCore();
  const std::string dir = test::TempDir();
  StartOptions options;
  options.name = dir + "/a" + std::string(1, '\0') + "b";
  auto started = Start(options);
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.status().message(), "embedded null byte");
  EXPECT_EQ(started.status().kind(), ErrorKind::kValue);
  EXPECT_FALSE(ProfilingOn());
  EXPECT_TRUE(Finalize(std::nullopt).ok());
  EXPECT_TRUE(fs::is_empty(dir));
  test::ResetCore();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace proton
