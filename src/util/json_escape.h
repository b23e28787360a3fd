// The one JSON string escaper of the repository: the profiler's .hatchet and .chrome_trace
// writers (formats.md §2.1, byte for byte as Triton 3.6's Python json.dumps writes them) and
// the viewer's machine-readable outputs (--export, --fail-above, --html, --speedscope; read by
// JSON parsers, so any valid escape would do, and they take the writers' one).
#pragma once

#include <string>
#include <string_view>

namespace proton {

// Appends `s` quoted. Only '"', '\\' and control characters are escaped; control characters
// use \b \f \n \r \t or \u00XX with lower-case hex. Other bytes (UTF-8) are copied.
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace proton
