// CuptiCallChecker: failures counted per call, one warning line per distinct (call, result).
#include "cupti/cupti_call_checker.h"

#include <gtest/gtest.h>

#include <string>

#include "cupti/testing/fake_cupti.h"

namespace proton::cupti {
namespace {

TEST(CuptiCallChecker, SuccessIsNeitherCountedNorReported) {
  CuptiCallChecker checker;
  ::testing::internal::CaptureStderr();
  EXPECT_TRUE(checker.Check(testing::FakeCuptiApi(), CUPTI_SUCCESS, "cuptiFinalize"));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(checker.total_failures(), 0u);
  EXPECT_EQ(checker.Summary(), "");
}

TEST(CuptiCallChecker, EachDistinctFailureWarnsOnceAndEveryFailureCounts) {
  CuptiCallChecker checker;
  const CuptiApi* api = testing::FakeCuptiApi();
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(checker.Check(api, CUPTI_ERROR_NOT_INITIALIZED, "cuptiActivityFlushAll"));
  EXPECT_FALSE(checker.Check(api, CUPTI_ERROR_NOT_INITIALIZED, "cuptiActivityFlushAll"));
  EXPECT_FALSE(checker.Check(api, CUPTI_ERROR_UNKNOWN, "cuptiActivityFlushAll"));
  EXPECT_FALSE(checker.Check(api, CUPTI_ERROR_NOT_INITIALIZED, "cuptiFinalize"));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "[proton] warning: cuptiActivityFlushAll failed: CUPTI_ERROR_NOT_INITIALIZED (15)\n"
            "[proton] warning: cuptiActivityFlushAll failed: CUPTI_ERROR_UNKNOWN (999)\n"
            "[proton] warning: cuptiFinalize failed: CUPTI_ERROR_NOT_INITIALIZED (15)\n");
  EXPECT_EQ(checker.failures("cuptiActivityFlushAll"), 3u);
  EXPECT_EQ(checker.failures("cuptiFinalize"), 1u);
  EXPECT_EQ(checker.failures("cuptiUnsubscribe"), 0u);
  EXPECT_EQ(checker.total_failures(), 4u);
  EXPECT_EQ(checker.Summary(), "cuptiActivityFlushAll 3, cuptiFinalize 1");
}

}  // namespace
}  // namespace proton::cupti
