// See printable.h.
#include "util/printable.h"

#include <cstdint>

#include "util/py_unicode.h"

namespace proton {
namespace {

void AppendEscaped(unsigned char byte, std::string& out) {
  switch (byte) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: break;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xf];
}

}  // namespace

std::string PrintableText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out += static_cast<char>(byte);
      ++i;
      continue;
    }
    const size_t start = i;
    uint32_t cp = 0;
    if (byte >= 0x80 && DecodeUtf8(text, i, cp) && cp >= 0xa0) {
      out.append(text.substr(start, i - start));
      continue;
    }
    AppendEscaped(byte, out);
    i = start + 1;
  }
  return out;
}

}  // namespace proton
