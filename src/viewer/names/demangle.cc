// See demangle.h. Demangling is DemangleBounded (itanium_demangle.h): libiberty's demangler,
// the one libstdc++'s abi::__cxa_demangle is built from, with its work and output bounded, so
// we do not maintain a demangler of our own.
#include "viewer/names/demangle.h"

#include <unordered_map>

#include "viewer/names/itanium_demangle.h"

namespace proton::viewer {

std::string DemangleItanium(std::string_view name) {
  DemangleResult result = DemangleBounded(name);
  if (result.status != DemangleStatus::kDemangled) return std::string(name);
  return std::move(result.text);
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
