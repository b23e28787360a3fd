// See py_number.h. The grammar checks mirror CPython 3.11: float_from_string_inner +
// _Py_string_to_number_with_underscores + _Py_dg_strtod, and PyLong_FromString(base=10).
#include "viewer/cli/py_number.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

#include "util/ascii.h"
#include "util/py_unicode.h"

namespace proton::viewer {
namespace {

bool IsPyUnicodeSpace(uint32_t c) {
  if ((c >= 0x9 && c <= 0xd) || (c >= 0x1c && c <= 0x20)) return true;
  if (c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a)) return true;
  return c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

bool IsAsciiSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string_view StripAsciiSpace(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

// _Py_string_to_number_with_underscores: '_' only between two digits; removed.
std::optional<std::string> RemoveUnderscores(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  char prev = '\0';
  for (char c : s) {
    if (c == '_') {
      if (!IsDigit(prev)) return std::nullopt;
    } else {
      out.push_back(c);
      if (prev == '_' && !IsDigit(c)) return std::nullopt;
    }
    prev = c;
  }
  if (prev == '_') return std::nullopt;
  return out;
}

// `lower` is already lower case.
bool EqualsNoCase(std::string_view a, std::string_view lower) {
  return a.size() == lower.size() && AsciiLower(a) == lower;
}

// The decimal float grammar of _Py_dg_strtod (after the sign): digits [. digits] [e[sign]digits]
// with at least one mantissa digit.
bool IsDecimalFloat(std::string_view s) {
  size_t i = 0, digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && IsDigit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

}  // namespace

std::optional<std::string> PyTransformDecimalAndSpace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    uint32_t cp = 0;
    if (!DecodeUtf8(text, i, cp)) return std::nullopt;
    if (cp < 0x7f) {
      // Copied as is: ASCII 0x1c..0x1f are str whitespace but not for the C-level parser.
      out.push_back(static_cast<char>(cp));
      continue;
    }
    if (IsPyUnicodeSpace(cp)) {
      out.push_back(' ');
      continue;
    }
    std::optional<int> digit = PyDecimalDigitValue(cp);
    if (!digit) return std::nullopt;
    out.push_back(static_cast<char>('0' + *digit));
  }
  return out;
}

std::optional<double> ParsePyFloat(std::string_view text) {
  std::optional<std::string> ascii = PyTransformDecimalAndSpace(text);
  if (!ascii) return std::nullopt;
  std::string_view s = StripAsciiSpace(*ascii);
  if (s.empty()) return std::nullopt;
  std::string cleaned;
  if (s.find('_') != std::string_view::npos) {
    std::optional<std::string> no_underscores = RemoveUnderscores(s);
    if (!no_underscores) return std::nullopt;
    cleaned = std::move(*no_underscores);
  } else {
    cleaned.assign(s);
  }
  std::string_view body = cleaned;
  bool negative = false;
  if (!body.empty() && (body.front() == '+' || body.front() == '-')) {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (EqualsNoCase(body, "inf") || EqualsNoCase(body, "infinity")) {
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  if (EqualsNoCase(body, "nan")) {
    return negative ? -std::numeric_limits<double>::quiet_NaN()
                    : std::numeric_limits<double>::quiet_NaN();
  }
  if (!IsDecimalFloat(body)) return std::nullopt;
  // glibc strtod rounds correctly, gives ±inf on overflow and ±0 on underflow; the grammar
  // was checked above, so it cannot see hex floats or other extensions.
  std::string digits(body);
  errno = 0;
  double value = std::strtod(digits.c_str(), nullptr);
  return negative ? -value : value;
}

std::optional<int64_t> ParsePyInt(std::string_view text) {
  std::optional<std::string> ascii = PyTransformDecimalAndSpace(text);
  if (!ascii) return std::nullopt;
  std::string_view s = StripAsciiSpace(*ascii);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || !IsDigit(s.front())) return std::nullopt;
  // Accumulate as a magnitude, saturating: values beyond the int64 range are clamped (§2.2).
  constexpr uint64_t kLimit = uint64_t{1} << 63;  // |INT64_MIN|
  uint64_t magnitude = 0;
  bool saturated = false;
  char prev = '\0';
  for (char c : s) {
    if (c == '_') {
      if (!IsDigit(prev)) return std::nullopt;
    } else if (IsDigit(c)) {
      if (!saturated) {
        magnitude = magnitude * 10 + static_cast<uint64_t>(c - '0');
        if (magnitude > kLimit) saturated = true;
      }
    } else {
      return std::nullopt;
    }
    prev = c;
  }
  if (prev == '_') return std::nullopt;
  if (negative) {
    if (saturated || magnitude >= kLimit) return std::numeric_limits<int64_t>::min();
    return -static_cast<int64_t>(magnitude);
  }
  if (saturated || magnitude >= kLimit) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(magnitude);
}

}  // namespace proton::viewer
