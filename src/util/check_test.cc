// PROTON_CHECK / PROTON_DCHECK: one line with file:line, condition and message, then abort;
// DCHECK evaluates nothing where it is off.
#include "util/check.h"

#include <gtest/gtest.h>

namespace proton {
namespace {

enum class Colour { kRed = 3 };

TEST(Check, PassingCheckEvaluatesItsConditionOnce) {
  int evaluations = 0;
  PROTON_CHECK(++evaluations == 1) << "never printed";
  EXPECT_EQ(evaluations, 1);
}

TEST(Check, CheckInsideIfElseBindsAsOneStatement) {
  int branch = 0;
  if (branch == 0)
    PROTON_CHECK(true) << "x";
  else
    branch = 2;
  EXPECT_EQ(branch, 0);
}

using CheckDeathTest = ::testing::Test;

TEST_F(CheckDeathTest, FailurePrintsFileLineConditionAndMessageInOneLine) {
  int node = 7;
  EXPECT_DEATH(PROTON_CHECK(node < 3)
                   << "node " << node << " of " << 2.5 << ' ' << Colour::kRed << " " << true,
               "\\[proton\\] check failed: .*check_test\\.cc:[0-9]+: node < 3: node 7 of "
               "2\\.500000 3 true\n$");
}

TEST_F(CheckDeathTest, FailureWithoutMessageEndsAtTheCondition) {
  EXPECT_DEATH(PROTON_CHECK(1 + 1 == 3), "check failed: .*: 1 \\+ 1 == 3\n$");
}

#if PROTON_DCHECK_IS_ON
TEST_F(CheckDeathTest, DcheckFailsWhereItIsOn) {
  EXPECT_DEATH(PROTON_DCHECK(false) << "debug only", "check failed: .*: false: debug only");
}
#else
TEST(Check, DcheckIsNotEvaluatedWhereItIsOff) {
  int evaluations = 0;
  PROTON_DCHECK(++evaluations == 5) << "off";
  EXPECT_EQ(evaluations, 0);
}
#endif

}  // namespace
}  // namespace proton
