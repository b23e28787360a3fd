// See number_format.h.
#include "viewer/number_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace proton::viewer {
namespace {

// Writes nan/inf/-inf and returns the end, or nullptr for a finite value.
char* FormatNonFinite(char* out, double value) {
  if (std::isnan(value)) {
    std::memcpy(out, "nan", 3);
    return out + 3;
  }
  if (std::isinf(value)) {
    if (value < 0) *out++ = '-';
    std::memcpy(out, "inf", 3);
    return out + 3;
  }
  return nullptr;
}

}  // namespace

char* FormatFixed(char* out, double value, int decimals) {
  if (char* end = FormatNonFinite(out, value)) return end;
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
