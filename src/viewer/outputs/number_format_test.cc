// Tests for number_format: %.3f / %.2f with nan/inf, and Python's format(x, ".4") (expected
// strings generated with CPython 3.11).
#include "viewer/outputs/number_format.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace proton::viewer {
namespace {

std::string Fixed(double v, int decimals) {
  std::string s;
  AppendFixed(s, v, decimals);
  return s;
}

TEST(NumberFormat, FixedThreeDecimals) {
  EXPECT_EQ(Fixed(614400.0, 3), "614400.000");
  EXPECT_EQ(Fixed(0.0, 3), "0.000");
  EXPECT_EQ(Fixed(-0.0, 3), "-0.000");
  EXPECT_EQ(Fixed(-0.0001, 3), "-0.000");
  EXPECT_EQ(Fixed(0.0005, 3), "0.001");  // 0.0005 is slightly above the half in binary
  EXPECT_EQ(Fixed(0.0625, 3), "0.062");  // exact tie: round half to even
  EXPECT_EQ(Fixed(341796874999999.938, 3), "341796874999999.938");
  EXPECT_EQ(Fixed(1e300, 3).size(), 301u + 4u);
  EXPECT_EQ(Fixed(std::numeric_limits<double>::quiet_NaN(), 3), "nan");
  EXPECT_EQ(Fixed(-std::numeric_limits<double>::quiet_NaN(), 3), "nan");
  EXPECT_EQ(Fixed(std::numeric_limits<double>::infinity(), 3), "inf");
  EXPECT_EQ(Fixed(-std::numeric_limits<double>::infinity(), 3), "-inf");
  EXPECT_EQ(Fixed(-std::numeric_limits<double>::max(), 3).size(), 1u + 309u + 4u);
}

TEST(NumberFormat, FixedTwoDecimals) {
  EXPECT_EQ(Fixed(573440.0, 2), "573440.00");
  EXPECT_EQ(Fixed(-1374.453, 2), "-1374.45");
  EXPECT_EQ(Fixed(45.119, 2), "45.12");
  EXPECT_EQ(Fixed(std::nan(""), 2), "nan");
}

struct General4Case {
  double value;
  const char* text;
};

TEST(NumberFormat, General4MatchesPython) {
  const General4Case cases[] = {
      {204800.0, "2.048e+05"},
      {4255.0, "4.255e+03"},
      {4000.0, "4e+03"},
      {999.95, "1e+03"},
      {446.654, "446.7"},
      {250.0, "250.0"},
      {24.21521, "24.22"},
      {5.12, "5.12"},
      {1.04, "1.04"},
      {1.0, "1.0"},
      {0.0, "0.0"},
      {0.1478, "0.1478"},
      {0.09511, "0.09511"},
      {0.00012345, "0.0001234"},
      {5e-05, "5e-05"},
      {-401.535, "-401.5"},
      {-1374.453, "-1.374e+03"},
      {1e+16, "1e+16"},
      {-0.0, "-0.0"},
      {9.9996, "10.0"},
      {0.00099995, "0.001"},
      {99.995, "100.0"},
      {999.4999, "999.5"},
      {1e-300, "1e-300"},
      {1.7976931348623157e+308, "1.798e+308"},
      {5e-324, "4.941e-324"},
      {123456.0, "1.235e+05"},
      {0.5, "0.5"},
      {0.05, "0.05"},
      {0.0001, "0.0001"},
      {1e-05, "1e-05"},
      {1.2345678901234567e+19, "1.235e+19"},
      {-7.312715117751976e-07, "-7.313e-07"},
      {-4898619.485211566, "-4.899e+06"},
      {5219248.898251512, "5.219e+06"},
      {0.003031859454455259, "0.003032"},
      {-8.122808264515303e-09, "-8.123e-09"},
      {7866.340851152702, "7.866e+03"},
      {-1.3446586418989326e-09, "-1.345e-09"},
      {0.39166573353688694, "0.3917"},
      {0.04430800646815652, "0.04431"},
      {1.8230687000260784e-06, "1.823e-06"},
      {8.028549152229672e-09, "8.029e-09"},
      {-955355777957.3523, "-9.554e+11"},
      {828.2494558699316, "828.2"},
      {37296.77083581595, "3.73e+04"},
      {45170520.28930304, "4.517e+07"},
      {-556616.6674539299, "-5.566e+05"},
      {878334037.8971732, "8.783e+08"},
      {-0.053383109948485476, "-0.05338"},
      {353697.0796999488, "3.537e+05"},
      {9.044889105823875e-09, "9.045e-09"},
  };
  for (const General4Case& c : cases) EXPECT_EQ(FormatGeneral4(c.value), c.text) << c.value;
  EXPECT_EQ(FormatGeneral4(std::nan("")), "nan");
  EXPECT_EQ(FormatGeneral4(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatGeneral4(-std::numeric_limits<double>::infinity()), "-inf");
}

// FormatFixed has a fast path for the common case; it must print exactly what std::to_chars
// prints (correct rounding of the exact binary value) for every input.
TEST(NumberFormat, FixedFastPathMatchesToChars) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  std::uniform_int_distribution<int> exponent(-12, 17);
  char fast[kFixedBufferSize];
  char exact[kFixedBufferSize];
  auto check = [&](double v, int d) {
    const std::string got(fast, FormatFixed(fast, v, d));
    const std::string want(
        exact, std::to_chars(exact, exact + sizeof exact, v, std::chars_format::fixed, d).ptr);
    ASSERT_EQ(got, want) << "value " << std::hexfloat << v << " decimals " << d;
  };
  for (int i = 0; i < 2000000; ++i) {
    const double v = mantissa(rng) * std::pow(10.0, exponent(rng)) * (i % 3 == 0 ? -1 : 1);
    check(v, i % 10);
  }
  // Exact ties (k + 1/2) / 10^d where representable, and their neighbours: the cases where
  // only the exact value decides the rounding.
  for (int d = 0; d <= 9; ++d) {
    for (int64_t k = 0; k < 20000; ++k) {
      const double tie = (static_cast<double>(k) + 0.5) / std::pow(10.0, d);
      for (double v : {tie, std::nextafter(tie, 0.0), std::nextafter(tie, 1e300), -tie}) {
        check(v, d);
      }
    }
  }
  for (double v : {0.0, -0.0, 5e-324, -5e-324, 0x1p52, 0x1p53, 1e15, 4503599627370495.5, 0.0005,
                   0.0015, 0.0025, 1.0005, 2.675, 999.9995, 999.99949999999}) {
    for (int d = 0; d <= 9; ++d) check(v, d);
  }
}

}  // namespace
}  // namespace proton::viewer
