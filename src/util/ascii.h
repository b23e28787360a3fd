// ASCII case folding for names and keywords (backends, formats, metrics, boolean knobs).
// Only A-Z change: std::tolower depends on the C locale, which Python sets from the user's
// environment, so a byte above 127 could fold differently from one process to the next.
#pragma once

#include <string>
#include <string_view>

namespace proton {

inline std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace proton
