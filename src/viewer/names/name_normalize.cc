// See name_normalize.h. Demangling is demangle.h's DemangleItanium (libstdc++'s demangler).
#include "viewer/names/name_normalize.h"

#include <unordered_map>

#include "viewer/names/demangle.h"

namespace proton::viewer {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLowerHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f'); }

// Triton's numeric and signature suffixes: one or more groups of decimal digits, each
// followed by any of the specialisation letters c, d, e ("0", "12", "0d1d2d3de4").
bool IsSignatureSuffix(std::string_view s) {
  if (s.empty() || !IsDigit(s[0])) return false;
  for (char c : s) {
    if (!IsDigit(c) && c != 'c' && c != 'd' && c != 'e') return false;
  }
  return true;
}

// A hash: at least 8 lower-case hexadecimal digits. Eight keeps words such as "_fused" or
// "_decode" (too short, or not hex) from being taken for one.
bool IsHashSuffix(std::string_view s) {
  if (s.size() < 8) return false;
  for (char c : s) {
    if (!IsLowerHex(c)) return false;
  }
  return true;
}

}  // namespace

std::string NormalizeName(std::string_view name) {
  std::string result = DemangleItanium(name);
  while (true) {
    const size_t underscore = result.rfind('_');
    // Something must remain before the suffix: "_0" and "_kernel" stay as they are.
    if (underscore == std::string::npos || underscore == 0) break;
    const std::string_view suffix = std::string_view(result).substr(underscore + 1);
    if (!IsSignatureSuffix(suffix) && !IsHashSuffix(suffix)) break;
    result.resize(underscore);
  }
  return result;
}

void NormalizeNames(ProfileTree& tree) {
  // Profiles repeat a few kernel names many times: demangle each distinct name once.
  std::unordered_map<std::string, std::string> cache;
  for (NodeId n = 0; n < tree.size(); ++n) {
    const std::string name(tree.name(n));
    auto it = cache.find(name);
    if (it == cache.end()) it = cache.emplace(name, NormalizeName(name)).first;
    if (it->second == name) continue;
    const std::string type(tree.type(n));  // a copy: SetFrame may intern into the type table
    tree.SetFrame(n, it->second, type);
  }
  tree.BuildStructure();
}

}  // namespace proton::viewer
