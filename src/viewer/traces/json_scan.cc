// See json_scan.h.
#include "viewer/traces/json_scan.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "format/json_string.h"

namespace proton::viewer::traces {
namespace {

constexpr size_t kArenaBlock = size_t{64} << 10;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

char* StringArena::Allocate(size_t size) {
  while (block_ < blocks_.size() && used_ + size > sizes_[block_]) {
    ++block_;
    used_ = 0;
  }
  if (block_ == blocks_.size()) {
    const size_t bytes = std::max(size, kArenaBlock);
    blocks_.emplace_back(new char[bytes]);
    sizes_.push_back(bytes);
    used_ = 0;
  }
  char* out = blocks_[block_].get() + used_;
  used_ += size;
  return out;
}

void StringArena::Reset() {
  block_ = 0;
  used_ = 0;
}

Scan JsonScanner::Fail(const char* at, std::string message) {
  error_at_ = at;
  error_ = std::move(message);
  return Scan::kError;
}

Scan JsonScanner::SkipSpaceSlow(const char*& p) const {
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') ++p;
  return p == end_ ? Scan::kMore : Scan::kOk;
}

Scan JsonScanner::ExpectSlow(const char*& p, char c, const char* what) {
  const char* q = p;
  if (SkipSpace(q) == Scan::kMore) return Scan::kMore;
  if (*q != c) return Fail(q, std::string("expected '") + c + "' " + what);
  p = q + 1;
  return Scan::kOk;
}

// p at a byte >= 0x80: one UTF-8 sequence, checked (no overlong forms, no surrogates, at most
// U+10FFFF), and stepped over.
Scan JsonScanner::CheckUtf8(const char*& p) {
  const auto b = static_cast<unsigned char>(*p);
  int length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the second byte's range
  if (b >= 0xc2 && b <= 0xdf) {
    length = 2;
  } else if (b >= 0xe0 && b <= 0xef) {
    length = 3;
    if (b == 0xe0) low = 0xa0;
    if (b == 0xed) high = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    length = 4;
    if (b == 0xf0) low = 0x90;
    if (b == 0xf4) high = 0x8f;
  } else {
    return Fail(p, "invalid UTF-8 in a string");
  }
  for (int i = 1; i < length; ++i) {
    if (p + i == end_) return Scan::kMore;
    const auto c = static_cast<unsigned char>(p[i]);
    if (c < (i == 1 ? low : 0x80) || c > (i == 1 ? high : 0xbf)) {
      return Fail(p, "invalid UTF-8 in a string");
    }
  }
  p += length;
  return Scan::kOk;
}

// p at a backslash: the escape decoded onto `decoded`, p past it.
Scan JsonScanner::StringEscape(const char*& p, std::string& decoded) {
  static constexpr std::string_view kSimple = "\"\\/bfnrt";
  static constexpr std::string_view kMeaning = "\"\\/\b\f\n\r\t";
  if (p + 1 == end_) return Scan::kMore;
  const char c = p[1];
  if (const size_t i = kSimple.find(c); c != '\0' && i != std::string_view::npos) {
    decoded += kMeaning[i];
    p += 2;
    return Scan::kOk;
  }
  if (c != 'u') return Fail(p, "invalid escape in a string");
  auto unit = [&](const char* at, uint32_t& value) -> Scan {
    value = 0;
    for (int i = 0; i < 4; ++i) {
      if (at + i == end_) return Scan::kMore;
      const int h = format::HexValue(at[i]);
      if (h < 0) return Fail(p, "invalid \\u escape in a string");
      value = value * 16 + static_cast<uint32_t>(h);
    }
    return Scan::kOk;
  };
  uint32_t cp = 0;
  if (Scan s = unit(p + 2, cp); s != Scan::kOk) return s;
  size_t used = 6;
  if (cp >= 0xdc00 && cp <= 0xdfff) return Fail(p, "lone surrogate escape in a string");
  if (cp >= 0xd800 && cp <= 0xdbff) {
    if (p + 6 == end_ || p + 7 == end_) return Scan::kMore;
    uint32_t low = 0;
    if (p[6] != '\\' || p[7] != 'u') return Fail(p, "lone surrogate escape in a string");
    if (Scan s = unit(p + 8, low); s != Scan::kOk) return s;
    if (low < 0xdc00 || low > 0xdfff) return Fail(p, "lone surrogate escape in a string");
    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
    used = 12;
  }
  format::AppendUtf8(cp, decoded);
  p += used;
  return Scan::kOk;
}

Scan JsonScanner::StringSlow(const char*& p, std::string_view& out, StringArena& arena) {
  const char* start = p + 1;
  const char* q = start;
  bool escaped = false;
  for (;;) {
    const char* run = q;
    q = SkipPlainBytes(q);
    if (escaped) decoded_.append(run, q);
    const auto c = static_cast<unsigned char>(*q);
    if (c == '"') break;
    if (c == '\\') {
      if (!escaped) decoded_.assign(start, q);
      escaped = true;
      if (Scan s = StringEscape(q, decoded_); s != Scan::kOk) return s;
      continue;
    }
    if (c < 0x20) return q == end_ ? Scan::kMore : Fail(q, "control character in a string");
    const char* before = q;  // a non-ASCII byte
    if (Scan s = CheckUtf8(q); s != Scan::kOk) return s;
    if (escaped) decoded_.append(before, q);
  }
  if (escaped) {
    char* copy = arena.Allocate(decoded_.size());
    if (!decoded_.empty()) std::memcpy(copy, decoded_.data(), decoded_.size());
    out = std::string_view(copy, decoded_.size());
  } else {
    out = std::string_view(start, static_cast<size_t>(q - start));
  }
  p = q + 1;
  return Scan::kOk;
}

Scan JsonScanner::Number(const char*& p, std::string_view& token) {
  const char* q = p;
  if (*q == '-') ++q;
  for (std::string_view word : {std::string_view("Infinity"), std::string_view("NaN")}) {
    if (*q != word.front() || (word == "NaN" && q != p)) continue;
    for (char w : word) {
      if (q == end_) return Scan::kMore;
      if (*q++ != w) return Fail(p, "invalid number");
    }
    token = std::string_view(p, static_cast<size_t>(q - p));
    p = q;
    return Scan::kOk;
  }
  auto digits = [&]() -> Scan {
    if (!IsDigit(*q)) return q == end_ ? Scan::kMore : Fail(p, "invalid number");
    while (IsDigit(*q)) ++q;
    return Scan::kOk;
  };
  if (*q == '0') {
    ++q;
  } else if (Scan s = digits(); s != Scan::kOk) {
    return s;
  }
  if (*q == '.') {
    ++q;
    if (Scan s = digits(); s != Scan::kOk) return s;
  }
  if (*q == 'e' || *q == 'E') {
    ++q;
    if (*q == '+' || *q == '-') ++q;
    if (Scan s = digits(); s != Scan::kOk) return s;
  }
  if (q == end_) return Scan::kMore;  // the number may go on in the next chunk
  token = std::string_view(p, static_cast<size_t>(q - p));
  p = q;
  return Scan::kOk;
}

Scan JsonScanner::Literal(const char*& p, int& value) {
  std::string_view word;
  if (*p == 't') word = "true", value = 1;
  if (*p == 'f') word = "false", value = 0;
  if (*p == 'n') word = "null", value = -1;
  if (word.empty()) return p == end_ ? Scan::kMore : Fail(p, "expected a value");
  for (size_t i = 0; i < word.size(); ++i) {
    if (p + i == end_) return Scan::kMore;
    if (p[i] != word[i]) return Fail(p, "expected a value");
  }
  p += word.size();
  return Scan::kOk;
}

}  // namespace proton::viewer::traces

namespace proton::viewer::traces {

Scan JsonScanner::SkipValue(const char*& p, std::string_view* raw) {
  const char* q = p;
  if (Scan s = SkipSpace(q); s != Scan::kOk) return s;
  const char* start = q;
  open_.clear();
  skip_arena_.Reset();
  SkipState state = SkipState::kValue;
  while (state != SkipState::kDone) {
    if (Scan s = SkipStep(q, state); s != Scan::kOk) return s;
  }
  if (raw != nullptr) *raw = std::string_view(start, static_cast<size_t>(q - start));
  p = q;
  return Scan::kOk;
}

// A value's first token: a scalar (stepped over) or a container (opened).
Scan JsonScanner::SkipScalarOrOpen(const char*& p, SkipState& state) {
  const char c = *p;
  Scan s = Scan::kOk;
  if (c == '{' || c == '[') {
    open_ += c;
    ++p;
    state = c == '{' ? SkipState::kKeyOrClose : SkipState::kValueOrClose;
    return Scan::kOk;
  }
  if (c == '"') {
    std::string_view ignored;
    s = String(p, ignored, skip_arena_);
  } else if (c == '-' || IsDigit(c) || c == 'N' || c == 'I') {
    std::string_view ignored;
    s = Number(p, ignored);
  } else {
    int ignored = 0;
    s = Literal(p, ignored);
  }
  if (s == Scan::kOk) state = open_.empty() ? SkipState::kDone : SkipState::kAfterValue;
  return s;
}

Scan JsonScanner::SkipStep(const char*& p, SkipState& state) {
  if (Scan s = SkipSpace(p); s != Scan::kOk) return s;
  const char closer = !open_.empty() && open_.back() == '{' ? '}' : ']';
  const bool closes = (state == SkipState::kValueOrClose && *p == ']') ||
                      (state == SkipState::kKeyOrClose && *p == '}') ||
                      (state == SkipState::kAfterValue && *p == closer);
  if (closes) {
    ++p;
    open_.pop_back();
    state = open_.empty() ? SkipState::kDone : SkipState::kAfterValue;
    return Scan::kOk;
  }
  switch (state) {
    case SkipState::kValue:
    case SkipState::kValueOrClose: return SkipScalarOrOpen(p, state);
    case SkipState::kKey:
    case SkipState::kKeyOrClose: {
      if (*p != '"') return Fail(p, "expected a key");
      std::string_view ignored;
      if (Scan s = String(p, ignored, skip_arena_); s != Scan::kOk) return s;
      if (Scan s = Expect(p, ':', "after a key"); s != Scan::kOk) return s;
      state = SkipState::kValue;
      return Scan::kOk;
    }
    case SkipState::kAfterValue:
      if (*p != ',') return Fail(p, std::string("expected ',' or '") + closer + "'");
      ++p;
      state = closer == '}' ? SkipState::kKey : SkipState::kValue;
      return Scan::kOk;
    case SkipState::kDone: break;
  }
  return Scan::kOk;
}

namespace {

// 128-bit arithmetic (a GCC and clang extension) holds 38 decimal digits.
__extension__ using Uint128 = unsigned __int128;
constexpr int kMaxDigits = 36;

// A decimal number token as digits * 10^exponent; false for NaN, Infinity or more digits
// than kMaxDigits (callers then go through double).
bool Decompose(std::string_view t, bool& negative, Uint128& digits, int64_t& exponent) {
  size_t i = 0;
  negative = !t.empty() && t[0] == '-';
  if (negative) ++i;
  digits = 0;
  exponent = 0;
  int count = 0;
  bool fraction = false;
  for (; i < t.size() && t[i] != 'e' && t[i] != 'E'; ++i) {
    if (t[i] == '.') {
      fraction = true;
      continue;
    }
    if (!IsDigit(t[i])) return false;  // NaN, Infinity
    if (digits == 0 && t[i] == '0') {
      if (fraction) --exponent;
      continue;
    }
    if (++count > kMaxDigits) return false;
    digits = digits * 10 + static_cast<unsigned>(t[i] - '0');
    if (fraction) --exponent;
  }
  if (i < t.size()) {
    int64_t e = 0;
    std::string_view rest = t.substr(i + 1);
    if (!rest.empty() && rest[0] == '+') rest.remove_prefix(1);
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), e);
    if (ec != std::errc() || end != rest.data() + rest.size()) return false;
    exponent += e;
  }
  return true;
}

}  // namespace

// The common form, "<digits>[.<at most 3 digits>]" with at most 15 integer digits, in one
// pass without 128-bit arithmetic.
bool PlainMicroseconds(std::string_view t, int64_t& ns) {
  int64_t v = 0;
  size_t i = 0;
  for (; i < t.size() && IsDigit(t[i]); ++i) v = v * 10 + (t[i] - '0');
  if (i == 0 || i > 15) return false;
  int decimals = 0;
  if (i < t.size() && t[i] == '.') {
    for (++i; i < t.size() && IsDigit(t[i]) && decimals < 3; ++i, ++decimals) {
      v = v * 10 + (t[i] - '0');
    }
  }
  if (i != t.size()) return false;
  for (; decimals < 3; ++decimals) v *= 10;
  ns = v;
  return true;
}

bool MicrosecondsToNanoseconds(std::string_view token, int64_t& ns) {
  if (PlainMicroseconds(token, ns)) return true;
  bool negative = false;
  Uint128 digits = 0;
  int64_t exponent = 0;
  if (!Decompose(token, negative, digits, exponent)) {
    const double v = TokenToDouble(token) * 1000.0;
    if (!std::isfinite(v) || std::fabs(v) >= 9.2e18) return false;
    ns = static_cast<int64_t>(std::llround(v));
    return true;
  }
  exponent += 3;  // microseconds to nanoseconds
  constexpr Uint128 kLimit = std::numeric_limits<int64_t>::max();
  if (digits == 0) exponent = 0;
  for (; exponent > 0; --exponent) {
    digits *= 10;
    if (digits > kLimit) return false;
  }
  if (exponent < -kMaxDigits) {
    digits = 0;
  } else if (exponent < 0) {
    Uint128 scale = 1;
    for (int64_t e = exponent; e < 0; ++e) scale *= 10;
    digits = (digits + scale / 2) / scale;  // half away from zero (the sign is applied below)
  }
  if (digits > kLimit) return false;
  ns = negative ? -static_cast<int64_t>(digits) : static_cast<int64_t>(digits);
  return true;
}

bool IsIntegerToken(std::string_view token) {
  return token.find_first_of(".eEIN") == std::string_view::npos;
}

double TokenToDouble(std::string_view token) {
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec == std::errc::result_out_of_range) {  // 1e400, 1e-400: what Python's float() gives
    return token.find("e-") != std::string_view::npos || token.find("E-") != std::string_view::npos
               ? 0.0
               : (token[0] == '-' ? -HUGE_VAL : HUGE_VAL);
  }
  (void)end;
  return value;
}

bool TokenToInt64(std::string_view token, int64_t& value) {
  if (IsIntegerToken(token)) {
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    return ec == std::errc() && end == token.data() + token.size();
  }
  const double d = TokenToDouble(token);
  if (!(d >= -9.2e18 && d <= 9.2e18) || d != std::trunc(d)) return false;
  value = static_cast<int64_t>(d);
  return true;
}

bool TokenToUint64(std::string_view token, uint64_t& value) {
  if (IsIntegerToken(token) && token[0] != '-') {
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    return ec == std::errc() && end == token.data() + token.size();
  }
  int64_t signed_value = 0;
  if (!TokenToInt64(token, signed_value) || signed_value < 0) return false;
  value = static_cast<uint64_t>(signed_value);
  return true;
}

}  // namespace proton::viewer::traces
