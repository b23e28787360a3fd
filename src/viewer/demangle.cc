// See demangle.h. Demangling is libstdc++'s abi::__cxa_demangle (the well-kept libiberty
// demangler), so we do not maintain a demangler of our own.
#include "viewer/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <unordered_map>

namespace proton::viewer {

std::string DemangleItanium(std::string_view name) {
  std::string mangled(name);  // not const: each return moves it
  // Only "_Z" names: __cxa_demangle also accepts bare type encodings, which would turn a
  // kernel called "i" into "int".
  if (name.substr(0, 2) != "_Z") return mangled;
  int status = 0;
  char* out = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) {
    std::free(out);
    return mangled;
  }
  std::string result(out);
  std::free(out);
  return result;
}

std::string DisplayName(std::string_view stored, DemangleMode mode) {
  if (mode == DemangleMode::kOff || stored.substr(0, 2) != "_Z") return std::string(stored);
  std::string demangled = DemangleItanium(stored);
  if (mode == DemangleMode::kFull || demangled == stored) return demangled;
  return ShortCxxName(demangled);
}

void ApplyDemangle(ProfileTree& tree, DemangleMode mode) {
  if (mode == DemangleMode::kOff) return;
  // Profiles repeat a few kernel names many times: demangle each distinct name once.
  std::unordered_map<std::string, std::string> cache;
  for (NodeId n = 0; n < tree.size(); ++n) {
    const std::string_view name = tree.name(n);
    if (name.substr(0, 2) != "_Z") continue;
    std::string key(name);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, DisplayName(key, mode)).first;
    if (it->second == key) continue;
    const std::string type(tree.type(n));  // a copy: SetFrame may intern into the type table
    tree.SetFrame(n, it->second, type);
  }
}

}  // namespace proton::viewer
