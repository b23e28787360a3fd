// The boolean environment knobs' parser (profiler.md §1.11), Triton's: `1`, `true`, `on` (any
// case) are true, anything else is false. The `proton` command and the library read the same
// knobs (PROTON_DISABLE, PROTON_VERBOSE), so both use this one function.
#pragma once

#include <string>
#include <string_view>

#include "util/ascii.h"

namespace proton {

inline bool ParseBool(std::string_view text) {
  const std::string lower = AsciiLower(text);
  return lower == "1" || lower == "true" || lower == "on";
}

}  // namespace proton
