// See number_format.h.
#include "viewer/outputs/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace proton::viewer {
namespace {

// Writes nan/inf/-inf and returns the end, or nullptr for a finite value.
char* FormatNonFinite(char* out, double value) {
  if (std::isnan(value)) {
    std::copy_n("nan", 3, out);
    return out + 3;
  }
  if (std::isinf(value)) {
    if (value < 0) *out++ = '-';
    std::copy_n("inf", 3, out);
    return out + 3;
  }
  return nullptr;
}

constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
constexpr uint64_t kPow10Int[] = {1,      10,      100,      1000,      10000,
                                  100000, 1000000, 10000000, 100000000, 1000000000};

// The common case of FormatFixed without std::to_chars (36 ns a value here, a tenth of the
// viewer's time on a 20k-node profile): |value| * 10^decimals is computed in one rounding,
// so it is within half an ulp of the exact product. Unless its fraction is within a few ulps
// of .5 (a tie or near-tie, where only the exact value decides), rounding it to the nearest
// integer gives the correctly rounded result, i.e. what to_chars prints. nullptr: not handled.
template <int kDecimals>
char* FormatFixedFast(char* out, double value) {
  const double scaled = std::fabs(value) * kPow10[kDecimals];
  if (!(scaled < 0x1p52)) return nullptr;  // integers and halves stay exact below 2^52
  const double floor = std::floor(scaled);
  const double fraction = scaled - floor;  // exact
  if (std::fabs(fraction - 0.5) <= scaled * 0x1p-50) return nullptr;
  const uint64_t rounded = static_cast<uint64_t>(floor) + (fraction > 0.5 ? 1 : 0);
  if (std::signbit(value)) *out++ = '-';
  // Constant divisors: the compiler turns them into multiplications.
  out = std::to_chars(out, out + 24, rounded / kPow10Int[kDecimals]).ptr;
  if constexpr (kDecimals == 0) {
    return out;
  } else {
    *out++ = '.';
    uint64_t digits = rounded % kPow10Int[kDecimals];
    for (int i = kDecimals - 1; i >= 0; --i) {
      out[i] = static_cast<char>('0' + digits % 10);
      digits /= 10;
    }
    return out + kDecimals;
  }
}

char* FormatFixedFast(char* out, double value, int decimals) {
  switch (decimals) {
    case 0: return FormatFixedFast<0>(out, value);
    case 1: return FormatFixedFast<1>(out, value);
    case 2: return FormatFixedFast<2>(out, value);
    case 3: return FormatFixedFast<3>(out, value);
    case 4: return FormatFixedFast<4>(out, value);
    case 5: return FormatFixedFast<5>(out, value);
    case 6: return FormatFixedFast<6>(out, value);
    case 7: return FormatFixedFast<7>(out, value);
    case 8: return FormatFixedFast<8>(out, value);
    case 9: return FormatFixedFast<9>(out, value);
    default: return nullptr;
  }
}

}  // namespace

char* FormatFixed(char* out, double value, int decimals) {
  if (char* end = FormatNonFinite(out, value)) return end;
  if (char* end = FormatFixedFast(out, value, decimals)) return end;
  return std::to_chars(out, out + kFixedBufferSize, value, std::chars_format::fixed, decimals).ptr;
}

void AppendFixed(std::string& out, double value, int decimals) {
  char buf[kFixedBufferSize];
  char* end = FormatFixed(buf, value, decimals);
  out.append(buf, end);
}

std::string FormatGeneral4(double value) {
  char buf[kFixedBufferSize];
  if (char* end = FormatNonFinite(buf, value)) return std::string(buf, end);
  // Round to 4 significant digits first: its exponent decides the notation.
  char* end = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific, 3).ptr;
  std::string sci(buf, end);
  const size_t e = sci.find('e');
  const int exponent = std::atoi(sci.c_str() + e + 1);
  if (exponent < -4 || exponent >= 3) {
    std::string mantissa = sci.substr(0, e);
    while (mantissa.back() == '0') mantissa.pop_back();
    if (mantissa.back() == '.') mantissa.pop_back();
    return mantissa + sci.substr(e);  // to_chars writes e±dd with at least two digits
  }
  end = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, 3 - exponent).ptr;
  std::string fixed(buf, end);
  if (fixed.find('.') == std::string::npos) {
    fixed += ".0";
  } else {
    while (fixed.back() == '0') fixed.pop_back();
    if (fixed.back() == '.') fixed.push_back('0');
  }
  return fixed;
}

}  // namespace proton::viewer
