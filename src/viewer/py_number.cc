// See py_number.h. The grammar checks mirror CPython 3.11: float_from_string_inner +
// _Py_string_to_number_with_underscores + _Py_dg_strtod, and PyLong_FromString(base=10).
#include "viewer/py_number.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

#include "util/ascii.h"

namespace proton::viewer {
namespace {

// The zero digit of every Unicode 14 decimal-digit run (category Nd, Python 3.11's tables).
constexpr uint32_t kDecimalZeros[] = {
    0x30,    0x660,   0x6f0,   0x7c0,   0x966,   0x9e6,   0xa66,   0xae6,   0xb66,   0xbe6,
    0xc66,   0xce6,   0xd66,   0xde6,   0xe50,   0xed0,   0xf20,   0x1040,  0x1090,  0x17e0,
    0x1810,  0x1946,  0x19d0,  0x1a80,  0x1a90,  0x1b50,  0x1bb0,  0x1c40,  0x1c50,  0xa620,
    0xa8d0,  0xa900,  0xa9d0,  0xa9f0,  0xaa50,  0xabf0,  0xff10,  0x104a0, 0x10d30, 0x11066,
    0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0,
    0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2,
    0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0};

bool IsPyUnicodeSpace(uint32_t c) {
  if ((c >= 0x9 && c <= 0xd) || (c >= 0x1c && c <= 0x20)) return true;
  if (c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a)) return true;
  return c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

// Decodes one UTF-8 sequence at text[i]; returns false on malformed input.
bool DecodeUtf8(std::string_view text, size_t& i, uint32_t& cp) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  int len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xe ? 3 : (b0 >> 3) == 0x1e ? 4 : 0;
  if (len == 0 || i + len > text.size()) return false;
  cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1f) : len == 3 ? (b0 & 0x0f) : (b0 & 0x07);
  for (int k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(text[i + k]);
    if ((b & 0xc0) != 0x80) return false;
    cp = (cp << 6) | (b & 0x3f);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
  i += len;
  return true;
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

bool IsDecimalCodePoint(uint32_t cp) {
  for (uint32_t zero : kDecimalZeros) {
    if (cp >= zero && cp < zero + 10) return true;
  }
  return false;
}

}  // namespace

bool IsPyDecimalDigits(std::string_view text) {
  if (text.empty()) return false;
  size_t i = 0;
  while (i < text.size()) {
    uint32_t cp = 0;
    if (!DecodeUtf8(text, i, cp) || !IsDecimalCodePoint(cp)) return false;
  }
  return true;
}

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
    bool mapped = false;
    for (uint32_t zero : kDecimalZeros) {
      if (cp >= zero && cp < zero + 10) {
        out.push_back(static_cast<char>('0' + (cp - zero)));
        mapped = true;
        break;
      }
    }
    if (!mapped) return std::nullopt;
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
