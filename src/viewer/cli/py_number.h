// Python's float() and int() for command-line values (viewer.md §2.2): THRESHOLD and DEPTH
// must accept exactly what the reference's argparse `type=float` / `type=int` accepts,
// including surrounding (Unicode) whitespace, `_` between digits and non-ASCII decimal digits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace proton::viewer {

// Python 3.11 float(text): returns nullopt where Python raises ValueError. Overflow gives
// ±inf and underflow ±0, as in Python; "inf", "infinity" and "nan" are accepted in any case.
std::optional<double> ParsePyFloat(std::string_view text);

// Python 3.11 int(text) (base 10), with the result clamped to the int64 range.
std::optional<int64_t> ParsePyInt(std::string_view text);

// The ASCII form Python parses after mapping every Unicode decimal digit to its ASCII digit
// and every Unicode whitespace character to a space (_PyUnicode_TransformDecimalAndSpaceToASCII).
// nullopt when the text is not valid UTF-8 or holds another non-ASCII character.
std::optional<std::string> PyTransformDecimalAndSpace(std::string_view text);

}  // namespace proton::viewer
