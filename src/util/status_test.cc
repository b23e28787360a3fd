// Status/Result: what each accessor gives, the macros, and that misuse stops at a check.
#include "util/status.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>

namespace proton {
namespace {

// A Result can only be made from a value or an Error: an OK Status is refused at compile time.
static_assert(!std::is_constructible_v<Result<int>, Status>);
static_assert(!std::is_convertible_v<Status, Result<int>>);
static_assert(std::is_convertible_v<Error, Result<int>>);
static_assert(std::is_convertible_v<Error, Status>);
// A string is a value, never silently an Error.
static_assert(!std::is_convertible_v<std::string, Error>);

Result<int> Half(int n) {
  if (n % 2 != 0) return Status::Error("odd: " + std::to_string(n), ErrorKind::kValue);
  return n / 2;
}

Status RequireEven(int n) {
  if (n % 2 != 0) return Status::UsageError("not even");
  return Status();
}

Result<int> Quarter(int n) {
  PROTON_RETURN_IF_ERROR(RequireEven(n));
  PROTON_ASSIGN_OR_RETURN(int half, Half(n));
  PROTON_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

Status QuarterStatus(int n) {
  PROTON_ASSIGN_OR_RETURN(int quarter, Quarter(n));
  return quarter >= 0 ? Status() : Status::Error("negative");
}

TEST(Status, OkHasAnEmptyMessage) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.message(), "");
}

TEST(Status, ErrorKeepsMessageAndKind) {
  Status failed = Status::Error("disk full", ErrorKind::kRuntime);
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(failed.message(), "disk full");
  EXPECT_EQ(failed.kind(), ErrorKind::kRuntime);
  EXPECT_EQ(Status(Status::UsageError("bad flag")).kind(), ErrorKind::kUsage);
  EXPECT_EQ(Status(Status::Error("x")).kind(), ErrorKind::kProcessing);
  EXPECT_EQ(failed.error().message(), "disk full");
}

TEST(Status, ResultHoldsValueOrError) {
  Result<int> four = Half(8);
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(*four, 4);
  EXPECT_TRUE(four.status().ok());
  EXPECT_EQ(four.status().message(), "");
  Result<int> odd = Half(3);
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.status().message(), "odd: 3");
  EXPECT_EQ(odd.error().kind(), ErrorKind::kValue);
}

TEST(Status, ResultOfMoveOnlyValue) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(7);
  ASSERT_TRUE(r.ok());
  std::unique_ptr<int> taken = std::move(r).value();
  EXPECT_EQ(*taken, 7);
}

TEST(Status, MacrosReturnTheFirstError) {
  EXPECT_EQ(*Quarter(8), 2);
  EXPECT_EQ(Quarter(3).status().message(), "not even");
  EXPECT_EQ(Quarter(3).status().kind(), ErrorKind::kUsage);
  EXPECT_EQ(Quarter(6).status().message(), "odd: 3");
  EXPECT_TRUE(QuarterStatus(8).ok());
  EXPECT_EQ(QuarterStatus(6).message(), "odd: 3");
}

using StatusDeathTest = ::testing::Test;

TEST_F(StatusDeathTest, ValueOfAFailedResultIsACheckFailure) {
  Result<int> odd = Half(3);
  EXPECT_DEATH((void)odd.value(), "check failed: .*value\\(\\) of a failed Result: odd: 3");
  EXPECT_DEATH((void)*odd, "value\\(\\) of a failed Result");
}

TEST_F(StatusDeathTest, ErrorOfSomethingOkIsACheckFailure) {
  Status ok;
  EXPECT_DEATH((void)ok.error(), "check failed: .*error\\(\\) of an OK Status");
  EXPECT_DEATH((void)ok.kind(), "error\\(\\) of an OK Status");
  Result<int> four = Half(8);
  EXPECT_DEATH((void)four.error(), "error\\(\\) of an OK Status");
  EXPECT_DEATH((void)std::move(four).error(), "error\\(\\) of a Result that holds a value");
}

}  // namespace
}  // namespace proton
