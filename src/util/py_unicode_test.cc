// Tests of Python's Unicode decimal digits (py_unicode.h).
#include "util/py_unicode.h"

#include <gtest/gtest.h>

namespace proton {
namespace {

TEST(PyUnicode, DecimalDigits) {
  EXPECT_TRUE(IsPyDecimalDigits("0123456789"));
  EXPECT_TRUE(IsPyDecimalDigits("\xd9\xa1\xd9\xa2"));  // Arabic-Indic ١٢
  EXPECT_FALSE(IsPyDecimalDigits(""));
  EXPECT_FALSE(IsPyDecimalDigits("1a"));
  EXPECT_FALSE(IsPyDecimalDigits("\xd9"));  // truncated UTF-8
  EXPECT_EQ(PyDecimalDigitValue(0x0663), 3);
  EXPECT_EQ(PyDecimalDigitValue('x'), std::nullopt);
}

}  // namespace
}  // namespace proton
