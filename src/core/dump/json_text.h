// JSON text pieces shared by the .hatchet and .chrome_trace writers (formats.md §2.1): string
// escaping and number formatting identical to Triton 3.6's output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace proton {

// Appends `s` quoted. Only '"', '\\' and control characters are escaped; control characters
// use \b \f \n \r \t or \u00XX with lower-case hex. Other bytes (UTF-8) are copied.
void AppendJsonString(std::string& out, std::string_view s);

// Appends the shortest text that reads back to `v`, in Python's repr style: ".0" on integral
// values, exponent form when the decimal exponent is < -4 or >= 16 ("1e+16", "1.5e-05").
// NaN and infinities are written as null.
void AppendJsonDouble(std::string& out, double v);

void AppendJsonInt(std::string& out, int64_t v);
void AppendJsonUint(std::string& out, uint64_t v);

}  // namespace proton
