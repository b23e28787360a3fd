// Text from the user or the file system (a path, a name, an environment value) shown inside a
// one-line message: a newline in a file name would split the line, and a stray byte or escape
// sequence would garble the terminal. Printable ASCII and valid UTF-8 stay as they are.
#pragma once

#include <string>
#include <string_view>

namespace proton {

// `text` with control characters written as \n, \r, \t or \xNN, and bytes that are not valid
// UTF-8 (or encode a C1 control, U+0080-U+009F) as \xNN, the way Python's repr shows them.
std::string PrintableText(std::string_view text);

}  // namespace proton
