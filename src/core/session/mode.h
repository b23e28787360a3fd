// The session mode string (profiler.md §1.10): "<name>[:key=value...]". Parsed and validated
// here; periodic_flushing is carried out by the session manager (§3.11), pcsampling by the
// backend.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "util/status.h"

namespace proton {

struct ModeSpec {
  std::string name;  // "" = kernel activity only
  std::map<std::string, std::string> options;
};

Result<ModeSpec> ParseMode(std::string_view mode);
inline Status ValidateMode(std::string_view mode) {
  auto r = ParseMode(mode);
  return r.ok() ? Status() : r.status();
}

}  // namespace proton
