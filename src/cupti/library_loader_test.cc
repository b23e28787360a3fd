// The libcupti search order, the version rules, and symbolic error names (profiler.md §5.1).
#include "cupti/library_loader.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace proton::cupti {
namespace {

std::vector<std::string> Paths(const std::vector<CuptiCandidate>& order) {
  std::vector<std::string> paths;
  for (const CuptiCandidate& c : order) {
    std::string kind = c.kind == CuptiCandidate::Kind::kFile            ? "file:"
                       : c.kind == CuptiCandidate::Kind::kAlreadyLoaded ? "loaded:"
                                                                        : "search:";
    paths.push_back(kind + c.path);
  }
  return paths;
}

TEST(CuptiSearchOrderTest, FullOrderOnBlackwell) {
  CuptiSearchEnv env;
  env.library = "/x/libcupti.so.13";
  env.lib_path = "/lib/dir";
  env.blackwell_path = "/bw/";
  env.compute_major = 10;
  env.wheel_files = {"/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcupti.so.13"};
  env.cuda_home = "/opt/cuda";
  EXPECT_EQ(Paths(CuptiSearchOrder(env)),
            (std::vector<std::string>{
                "file:/x/libcupti.so.13", "file:/bw/libcupti.so", "file:/lib/dir/libcupti.so",
                "loaded:libcupti.so", "loaded:libcupti.so.13", "loaded:libcupti.so.12",
                "file:/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcupti.so.13",
                "file:/opt/cuda/extras/CUPTI/lib64/libcupti.so",
                "file:/usr/local/cuda/extras/CUPTI/lib64/libcupti.so", "search:libcupti.so"}));
}

TEST(CuptiSearchOrderTest, BlackwellPathIgnoredOnHopper) {
  CuptiSearchEnv env;
  env.blackwell_path = "/bw";
  env.compute_major = 9;
  std::vector<std::string> paths = Paths(CuptiSearchOrder(env));
  EXPECT_EQ(paths.front(), "loaded:libcupti.so");
  EXPECT_EQ(paths.back(), "search:libcupti.so");
}

TEST(CuptiVersionTest, ApiVersionsMapToCudaVersions) {
  EXPECT_EQ(CuptiApiToCudaVersion(130001), 13000);
  EXPECT_EQ(CuptiApiToCudaVersion(130100), 13010);
  EXPECT_EQ(CuptiApiToCudaVersion(22), 12040);
  EXPECT_EQ(CuptiApiToCudaVersion(26), 12080);
  EXPECT_EQ(CuptiApiToCudaVersion(0), 0);
}

TEST(CuptiVersionTest, NewerThanDriverIsAClearError) {
  Status s = CheckCuptiVersion("/p/libcupti.so", 130100, 13000, 9);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/p/libcupti.so is newer than the CUDA driver"), std::string::npos);
  EXPECT_NE(s.message().find("CUPTI 13.1"), std::string::npos);
  EXPECT_NE(s.message().find("CUDA driver 13.0"), std::string::npos);
}

TEST(CuptiVersionTest, TooOldForTheGpuGeneration) {
  Status s = CheckCuptiVersion("/p/libcupti.so", 24, 12090, 10);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("too old for this GPU"), std::string::npos);
  EXPECT_TRUE(CheckCuptiVersion("/p", 24, 12090, 9).ok());
  EXPECT_TRUE(CheckCuptiVersion("/p", 130001, 13000, 9).ok());
  EXPECT_TRUE(CheckCuptiVersion("/p", 130001, 0, 9).ok());  // unknown driver: no check
}

TEST(CuptiErrorNameTest, BuiltinNamesWithoutALibrary) {
  EXPECT_EQ(CuptiResultName(nullptr, CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED),
            "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
  EXPECT_EQ(CuptiCallError(nullptr, "cuptiSubscribe", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES),
            "cuptiSubscribe failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)");
  EXPECT_EQ(CuptiResultName(nullptr, static_cast<CUptiResult>(4242)), "CUPTI error 4242");
  EXPECT_EQ(DriverResultName(nullptr, CUDA_ERROR_INVALID_VALUE), "CUDA error 1");
}

// The table resolves against a real libcupti when the toolkit has one (no GPU needed for
// cuptiGetResultString).
TEST(CuptiErrorNameTest, RealLibraryNamesResults) {
  const char* path = "/usr/local/cuda/lib64/libcupti.so";
  if (access(path, R_OK) != 0) GTEST_SKIP() << "no libcupti in the toolkit";
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  CuptiApi api;
  ASSERT_TRUE(ResolveCuptiApi(handle, path, &api).ok());
  EXPECT_EQ(CuptiResultName(&api, CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED),
            "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
  EXPECT_EQ(CuptiCallError(&api, "cuptiSubscribe", CUPTI_ERROR_INVALID_DEVICE),
            "cuptiSubscribe failed: CUPTI_ERROR_INVALID_DEVICE (2)");
}

TEST(CuptiResolveTest, MissingSymbolNamesItAndTheFile) {
  void* self = dlopen(nullptr, RTLD_NOW);
  CuptiApi api;
  Status s = ResolveCuptiApi(self, "/the/file.so", &api);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "symbol cuptiGetVersion not found in /the/file.so");
}

}  // namespace
}  // namespace proton::cupti
