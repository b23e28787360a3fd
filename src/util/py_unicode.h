// Python's notion of Unicode decimal digits (category Nd, Python 3.11's tables) over UTF-8
// text: `\d` in argparse's negative-number pattern, and the digits float() and int() accept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace proton {

// Decodes one UTF-8 sequence at text[i] into `cp` and advances `i`; false on malformed input
// (overlong forms, surrogates, beyond U+10FFFF).
bool DecodeUtf8(std::string_view text, size_t& i, uint32_t& cp);

// The value 0-9 of a Unicode decimal digit, or nullopt for any other code point.
std::optional<int> PyDecimalDigitValue(uint32_t cp);

// Whether `text` consists only of Unicode decimal digits, at least one. False for invalid
// UTF-8.
bool IsPyDecimalDigits(std::string_view text);

}  // namespace proton
