// Where a profile goes: a file written atomically (temporary file in the same directory, then
// rename; missing parent directories are created, D4), or standard output for "" and "-".
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"

namespace proton {

Status WriteFileAtomic(const std::string& path, std::string_view bytes);
Status WriteStdout(std::string_view bytes);

}  // namespace proton
