// Tests of JSON number formatting (formats.md §2.1; strings: util/json_escape_test.cc).
#include "core/dump/json_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace proton {
namespace {

std::string D(double v) {
  std::string s;
  AppendJsonDouble(s, v);
  return s;
}

TEST(JsonText, DoublesLikePythonRepr) {
  EXPECT_EQ(D(0.0), "0.0");
  EXPECT_EQ(D(-0.0), "-0.0");
  EXPECT_EQ(D(2.0), "2.0");
  EXPECT_EQ(D(42949672960.0), "42949672960.0");
  EXPECT_EQ(D(1000.0), "1000.0");
  EXPECT_EQ(D(5.12), "5.12");
  EXPECT_EQ(D(33491.115), "33491.115");
  EXPECT_EQ(D(0.001), "0.001");
  EXPECT_EQ(D(0.0001), "0.0001");
  EXPECT_EQ(D(0.00001), "1e-05");
  EXPECT_EQ(D(1.5e-7), "1.5e-07");
  EXPECT_EQ(D(1e15), "1000000000000000.0");
  EXPECT_EQ(D(1e16), "1e+16");
  EXPECT_EQ(D(1.25e17), "1.25e+17");
  EXPECT_EQ(D(1e100), "1e+100");
  EXPECT_EQ(D(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(D(-3.5), "-3.5");
  EXPECT_EQ(D(std::nan("")), "null");
  EXPECT_EQ(D(std::numeric_limits<double>::infinity()), "null");
}

TEST(JsonText, Integers) {
  std::string s;
  AppendJsonInt(s, -42);
  s.push_back(' ');
  AppendJsonUint(s, 18446744073709551615ull);
  EXPECT_EQ(s, "-42 18446744073709551615");
}

}  // namespace
}  // namespace proton
