// JSON text helpers; see json_text.h.
#include "core/dump/json_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace proton {

void AppendJsonDouble(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out.append("null");
    return;
  }
  // Shortest round-trip digits in scientific form: "-d.ddde+XX", then laid out the way
  // Python's repr does. Stack buffers only: this runs twice per trace event.
  char sci[64];
  auto res = std::to_chars(sci, sci + sizeof(sci), v, std::chars_format::scientific);
  const char* p = sci;
  const char* end = res.ptr;
  char buf[64];
  size_t len = 0;
  if (*p == '-') {
    buf[len++] = '-';
    ++p;
  }
  char digits[32];
  int n = 0;
  for (; p < end && *p != 'e'; ++p) {
    if (*p != '.') digits[n++] = *p;
  }
  int exp = 0;
  auto exp_res = std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), end, exp);
  (void)exp_res;
  auto put = [&](char c) { buf[len++] = c; };
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      put('0');
      put('.');
      for (int i = 0; i < -exp - 1; ++i) put('0');
      for (int i = 0; i < n; ++i) put(digits[i]);
    } else if (exp + 1 >= n) {
      for (int i = 0; i < n; ++i) put(digits[i]);
      for (int i = 0; i < exp + 1 - n; ++i) put('0');
      put('.');
      put('0');
    } else {
      for (int i = 0; i <= exp; ++i) put(digits[i]);
      put('.');
      for (int i = exp + 1; i < n; ++i) put(digits[i]);
    }
  } else {
    put(digits[0]);
    if (n > 1) {
      put('.');
      for (int i = 1; i < n; ++i) put(digits[i]);
    }
    put('e');
    put(exp < 0 ? '-' : '+');
    int a = exp < 0 ? -exp : exp;
    if (a < 10) put('0');
    auto r = std::to_chars(buf + len, buf + sizeof(buf), a);
    len = static_cast<size_t>(r.ptr - buf);
  }
  out.append(buf, len);
}

void AppendJsonInt(std::string& out, int64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, res.ptr);
}

void AppendJsonUint(std::string& out, uint64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, res.ptr);
}

}  // namespace proton
