// See py_unicode.h.
#include "util/py_unicode.h"

namespace proton {
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

}  // namespace

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

std::optional<int> PyDecimalDigitValue(uint32_t cp) {
  for (uint32_t zero : kDecimalZeros) {
    if (cp >= zero && cp < zero + 10) return static_cast<int>(cp - zero);
  }
  return std::nullopt;
}

bool IsPyDecimalDigits(std::string_view text) {
  if (text.empty()) return false;
  size_t i = 0;
  while (i < text.size()) {
    uint32_t cp = 0;
    if (!DecodeUtf8(text, i, cp) || !PyDecimalDigitValue(cp)) return false;
  }
  return true;
}

}  // namespace proton
