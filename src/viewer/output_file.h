// Writing a side output (--html, --speedscope) in one piece, with the error of §11.8.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"

namespace proton::viewer {

// Creates or truncates `path` and writes `text`. Any failure, from creating to closing, is
// "cannot write 'PATH': <strerror>".
Status WriteTextFile(const std::string& path, std::string_view text);

}  // namespace proton::viewer
