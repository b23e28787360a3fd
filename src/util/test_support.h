// Helpers shared by the unit tests (gtest only; never linked into a program): checking a
// Result that should hold a value, or a usage error, and getting at what it holds.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "util/status.h"

namespace proton::test {

// The value of a Result that must succeed; a failure (with the error) and T{} when it did not.
template <typename T>
T ExpectValue(Result<T> result) {
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.status().message());
  return result.ok() ? std::move(result).value() : T{};
}

// The message of a Result that must be a usage error; a failure and "(no error)" when it
// succeeded.
template <typename T>
std::string ExpectUsageError(const Result<T>& result) {
  EXPECT_FALSE(result.ok()) << "expected a usage error";
  if (result.ok()) return "(no error)";
  EXPECT_EQ(result.status().kind(), ErrorKind::kUsage) << result.status().message();
  return result.status().message();
}

}  // namespace proton::test
