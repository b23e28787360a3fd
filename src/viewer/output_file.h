// Writing side outputs (--export, --html, --speedscope), with the one error of §11.8 for any
// failure from creating the file to closing it.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "util/status.h"

namespace proton::viewer {

// "cannot write 'PATH': <strerror(error)>".
Error CannotWrite(const std::string& path, int error);

// Creates or truncates `path` for writing in pieces; CloseOutputFile reports what failed.
Result<std::FILE*> OpenOutputFile(const std::string& path);
// Closes `file`; a write error seen earlier on it, or a failing close, is CannotWrite.
Status CloseOutputFile(std::FILE* file, const std::string& path);

// Creates or truncates `path` and writes `text`. Any failure, from creating to closing, is
// "cannot write 'PATH': <strerror>".
Status WriteTextFile(const std::string& path, std::string_view text);

}  // namespace proton::viewer
