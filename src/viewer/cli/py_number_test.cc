// Tests for py_number: Python 3.11 float()/int() acceptance (expected values checked against
// CPython 3.11).
#include "viewer/cli/py_number.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace proton::viewer {
namespace {

TEST(PyFloat, AcceptsPythonForms) {
  EXPECT_EQ(*ParsePyFloat("1"), 1.0);
  EXPECT_EQ(*ParsePyFloat("  1  "), 1.0);
  EXPECT_EQ(*ParsePyFloat("\t-2.5\n"), -2.5);
  EXPECT_EQ(*ParsePyFloat("1_000"), 1000.0);
  EXPECT_EQ(*ParsePyFloat("1_000.5"), 1000.5);
  EXPECT_EQ(*ParsePyFloat("1e1_0"), 1e10);
  EXPECT_EQ(*ParsePyFloat(".5"), 0.5);
  EXPECT_EQ(*ParsePyFloat("5."), 5.0);
  EXPECT_EQ(*ParsePyFloat("+.5e-3"), 0.0005);
  EXPECT_EQ(*ParsePyFloat("1E9"), 1e9);
  EXPECT_EQ(*ParsePyFloat("0.1"), 0.1);
  EXPECT_EQ(*ParsePyFloat("-iNF"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(*ParsePyFloat("Infinity"), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(*ParsePyFloat("nan")));
  EXPECT_TRUE(std::isnan(*ParsePyFloat("-NaN")));
  EXPECT_EQ(*ParsePyFloat("1e400"), std::numeric_limits<double>::infinity());
  const double tiny = *ParsePyFloat("-1e-400");
  EXPECT_EQ(tiny, 0.0);
  EXPECT_TRUE(std::signbit(tiny));
  EXPECT_EQ(*ParsePyFloat("\xe2\x80\x80"
                          "1"),
            1.0);                                              // U+2000 EN QUAD is whitespace
  EXPECT_EQ(*ParsePyFloat("\xe0\xa5\xa7\xe0\xa5\xa8"), 12.0);  // Devanagari digits "१२"
}

TEST(PyFloat, RejectsWhatPythonRejects) {
  for (const char* bad : {"", " ", "x", "1__0", "_1", "1_", "1_e5", "in_f", "1_000._5", "0x10",
                          "1e", "e5", ".", "+", "--1", "1 2",
                          // The split ends the hex escape: \x1c, then '1'.
                          // NOLINTNEXTLINE(bugprone-suspicious-missing-comma)
                          "\x1c"
                          "1",
                          "1\x1c",
                          "\x7f"
                          "1",
                          "infinit", "nana", "1.5.", "\xff"}) {
    EXPECT_FALSE(ParsePyFloat(bad).has_value()) << bad;
  }
}

TEST(PyInt, AcceptsPythonForms) {
  EXPECT_EQ(*ParsePyInt("5"), 5);
  EXPECT_EQ(*ParsePyInt(" -2 "), -2);
  EXPECT_EQ(*ParsePyInt("+7"), 7);
  EXPECT_EQ(*ParsePyInt("007"), 7);
  EXPECT_EQ(*ParsePyInt("1_0"), 10);
  EXPECT_EQ(*ParsePyInt("\xe0\xa5\xa7\xe0\xa5\xa8"), 12);
  EXPECT_EQ(*ParsePyInt("99999999999999999999999"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(*ParsePyInt("-99999999999999999999999"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(*ParsePyInt("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(*ParsePyInt("-9223372036854775808"), std::numeric_limits<int64_t>::min());
}

TEST(PyInt, RejectsWhatPythonRejects) {
  for (const char* bad :
       {"", "1.5", "0x10", "1e5", "1__0", "_1", "1_", "+_1", "- 1", "x", ".5", "1 2", "inf"}) {
    EXPECT_FALSE(ParsePyInt(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace proton::viewer
