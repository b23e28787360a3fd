// See json_string.h. RFC 8259 strings: the two-character escapes, \uXXXX with surrogate
// pairs, and UTF-8 without overlong forms, surrogates or code points above U+10FFFF.
#include "format/json_string.h"

#include <cstdint>

namespace proton::format {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

namespace {

// Four hex digits at p (stops at the NUL sentinel at the latest).
bool Hex4(const char* p, uint32_t& v) {
  v = 0;
  for (int k = 0; k < 4; ++k) {
    const int h = HexValue(p[k]);
    if (h < 0) return false;
    v = v * 16 + static_cast<uint32_t>(h);
  }
  return true;
}

// A backslash escape at p (p[0] == '\\'); p after it on success.
bool Escape(const char*& p, std::string& out) {
  const char c = p[1];
  const char* simple = "\"\"\\\\//b\bf\fn\nr\rt\t";
  for (const char* s = simple; *s != '\0'; s += 2) {
    if (c == s[0]) {
      out += s[1];
      p += 2;
      return true;
    }
  }
  if (c != 'u') return false;
  uint32_t cp = 0;
  if (!Hex4(p + 2, cp)) return false;
  p += 6;
  if (cp >= 0xdc00 && cp <= 0xdfff) return false;  // a low surrogate alone
  if (cp >= 0xd800 && cp <= 0xdbff) {
    uint32_t low = 0;
    if (p[0] != '\\' || p[1] != 'u' || !Hex4(p + 2, low) || low < 0xdc00 || low > 0xdfff) {
      return false;  // a high surrogate alone
    }
    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
    p += 6;
  }
  AppendUtf8(cp, out);
  return true;
}

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// One multi-byte UTF-8 sequence at p; p after it on success.
bool Utf8(const char*& p, std::string& out) {
  const auto b = static_cast<unsigned char>(p[0]);
  int n = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // allowed range of the second byte
  if (b >= 0xc2 && b <= 0xdf)
    n = 1;
  else if (b == 0xe0)
    n = 2, lo = 0xa0;
  else if ((b >= 0xe1 && b <= 0xec) || b == 0xee || b == 0xef)
    n = 2;
  else if (b == 0xed)
    n = 2, hi = 0x9f;
  else if (b == 0xf0)
    n = 3, lo = 0x90;
  else if (b >= 0xf1 && b <= 0xf3)
    n = 3;
  else if (b == 0xf4)
    n = 3, hi = 0x8f;
  else
    return false;
  const auto second = static_cast<unsigned char>(p[1]);
  if (second < lo || second > hi) return false;
  for (int k = 2; k <= n; ++k) {
    if (!IsContinuation(p[k])) return false;
  }
  out.append(p, static_cast<size_t>(n) + 1);
  p += n + 1;
  return true;
}

}  // namespace

bool DecodeJsonStringTail(const char*& p, std::string& out) {
  for (;;) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"') return true;
    if (c < 0x20) return false;
    if (c == '\\') {
      if (!Escape(p, out)) return false;
    } else if (c >= 0x80) {
      if (!Utf8(p, out)) return false;
    } else {
      out += static_cast<char>(c);
      ++p;
    }
  }
}

}  // namespace proton::format
