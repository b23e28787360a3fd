// JSON text helpers; see json_text.h.
#include "core/dump/json_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace proton {

void AppendJsonString(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  size_t run = 0;  // start of the pending run of bytes that need no escape
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default: {
        char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out.append(esc, 6);
      }
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

void AppendJsonDouble(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out.append("null");
    return;
  }
  // Shortest round-trip digits in scientific form: "-d.ddde+XX".
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(res.ptr - buf));
  size_t e_pos = sci.find('e');
  std::string_view mant = sci.substr(0, e_pos);
  int exp = std::atoi(std::string(sci.substr(e_pos + 1)).c_str());
  bool negative = !mant.empty() && mant[0] == '-';
  if (negative) mant.remove_prefix(1);
  std::string digits;
  for (char c : mant) {
    if (c != '.') digits.push_back(c);
  }
  if (negative) out.push_back('-');
  int n = static_cast<int>(digits.size());
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      out.append("0.");
      out.append(static_cast<size_t>(-exp - 1), '0');
      out.append(digits);
    } else if (exp + 1 >= n) {
      out.append(digits);
      out.append(static_cast<size_t>(exp + 1 - n), '0');
      out.append(".0");
    } else {
      out.append(digits, 0, static_cast<size_t>(exp + 1));
      out.push_back('.');
      out.append(digits, static_cast<size_t>(exp + 1));
    }
    return;
  }
  out.push_back(digits[0]);
  if (n > 1) {
    out.push_back('.');
    out.append(digits, 1);
  }
  out.push_back('e');
  out.push_back(exp < 0 ? '-' : '+');
  int a = exp < 0 ? -exp : exp;
  if (a < 10) out.push_back('0');
  out.append(std::to_string(a));
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
