// Number formatting for the viewer's output (viewer.md §7.3, §7.5, §7.7): C `%.3f`/`%.2f`
// with `nan`/`inf`/`-inf` for non-finite values (never `-nan`), and Python's
// `format(x, ".4")` for --print-sorted. All results are correctly rounded from the exact
// binary value (std::to_chars).
#pragma once

#include <string>

namespace proton::viewer {

// Enough room for any double printed with up to 3 decimals (309 integer digits + sign + .ddd).
inline constexpr size_t kFixedBufferSize = 352;

// Writes `value` with exactly `decimals` (0..17) decimals to out (at least kFixedBufferSize
// bytes); returns the end. NaN (any sign) gives "nan", ±inf "inf"/"-inf", -0.0 "-0.000".
char* FormatFixed(char* out, double value, int decimals);

// Appends FormatFixed(value, decimals).
void AppendFixed(std::string& out, double value, int decimals);

// Python's format(value, ".4") for a float (§7.7's table).
std::string FormatGeneral4(double value);

}  // namespace proton::viewer
