// JSON text pieces shared by the .hatchet and .chrome_trace writers (formats.md §2.1): number
// formatting identical to Triton 3.6's output (string escaping: util/json_escape.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/json_escape.h"  // AppendJsonString, shared with the viewer

namespace proton {

// Appends the shortest text that reads back to `v`, in Python's repr style: ".0" on integral
// values, exponent form when the decimal exponent is < -4 or >= 16 ("1e+16", "1.5e-05").
// NaN and infinities are written as null.
void AppendJsonDouble(std::string& out, double v);

void AppendJsonInt(std::string& out, int64_t v);
void AppendJsonUint(std::string& out, uint64_t v);

}  // namespace proton
