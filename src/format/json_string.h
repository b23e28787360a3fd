// Decoding the rest of a JSON string for the fast reader (json_fast_reader.cc): escapes and
// UTF-8, validated as simdjson validates them, so that a profile with escaped or non-ASCII
// names stays on the fast path (the only one for JSON documents over simdjson's 4 GiB).
#pragma once

#include <cstdint>
#include <string>

namespace proton::format {

// The value of one hex digit, or -1.
int HexValue(char c);
// Appends code point `cp` (at most U+10FFFF, not a surrogate) as UTF-8.
void AppendUtf8(uint32_t cp, std::string& out);

// `p` points into a string's content, after its opening quote and any plain part already
// appended to `out`. Appends the decoded rest and leaves `p` at the closing quote. Returns
// false on a control byte (the window's NUL sentinel included), a bad escape, an unpaired
// surrogate or invalid UTF-8: the caller then hands the document to simdjson, which decides.
bool DecodeJsonStringTail(const char*& p, std::string& out);

}  // namespace proton::format
