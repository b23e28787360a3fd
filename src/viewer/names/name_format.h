// Frame-name formatting for printing (viewer.md §7.1, -f). Matching, sorting and diffing use
// the stored names; only the printers call this.
#pragma once

#include <string>
#include <string_view>

#include "viewer/common/options.h"

namespace proton::viewer {

// The printed form of `name`. May point into `name` or into `scratch`.
std::string_view FormatName(std::string_view name, NameFormat format, std::string& scratch);

}  // namespace proton::viewer
