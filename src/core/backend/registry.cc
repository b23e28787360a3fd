// Backend registry; see registry.h.
#include "core/backend/registry.h"

#include <map>
#include <mutex>

#include "core/fork_guard.h"
#include "util/ascii.h"

namespace proton {
namespace {

struct Registry {
  ForkGuardedMutex mutex{LockRank::kLeaf};
  std::map<std::string, std::unique_ptr<BackendRegistration>> entries;
};

// Never destroyed: registrations happen during static initialization of other parts, and
// sessions may stop a backend during static destruction.
Registry& GetRegistry() {
  static Registry* registry = new Registry();
  return *registry;
}

}  // namespace

bool RegisterBackend(BackendRegistration registration) {
  Registry& r = GetRegistry();
  std::lock_guard<ForkGuardedMutex> lock(r.mutex);
  std::string key = AsciiLower(registration.name);
  r.entries[key] = std::make_unique<BackendRegistration>(std::move(registration));
  return true;
}

void UnregisterBackend(std::string_view name) {
  Registry& r = GetRegistry();
  std::lock_guard<ForkGuardedMutex> lock(r.mutex);
  r.entries.erase(AsciiLower(name));
}

const BackendRegistration* FindBackend(std::string_view name) {
  Registry& r = GetRegistry();
  std::lock_guard<ForkGuardedMutex> lock(r.mutex);
  auto it = r.entries.find(AsciiLower(name));
  return it == r.entries.end() ? nullptr : it->second.get();
}

std::vector<std::string> RegisteredBackendNames() {
  Registry& r = GetRegistry();
  std::lock_guard<ForkGuardedMutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [k, v] : r.entries) names.push_back(v->name);
  return names;
}

}  // namespace proton
