// Backend registry; see registry.h.
#include "core/backend/registry.h"

#include "util/ascii.h"

namespace proton {
namespace {

using Entries = std::map<std::string, std::unique_ptr<BackendRegistration>>;

// The built-in catalogue. Never destroyed: it is filled during static initialization of other
// parts, and sessions may stop a backend during static destruction.
struct Builtins {
  ForkGuardedMutex mutex{LockRank::kLeaf};
  Entries entries PROTON_GUARDED_BY(mutex);
};

Builtins& GetBuiltins() {
  static Builtins* builtins = new Builtins();
  return *builtins;
}

const BackendRegistration* FindIn(const Entries& entries, const std::string& key) {
  auto it = entries.find(key);
  return it == entries.end() ? nullptr : it->second.get();
}

}  // namespace

bool AddBuiltinBackend(BackendRegistration registration) {
  Builtins& b = GetBuiltins();
  ForkGuardedLock lock(b.mutex);
  std::string key = AsciiLower(registration.name);
  b.entries[key] = std::make_unique<BackendRegistration>(std::move(registration));
  return true;
}

void BackendRegistry::Register(BackendRegistration registration) {
  ForkGuardedLock lock(mutex_);
  std::string key = AsciiLower(registration.name);
  entries_[key] = std::make_unique<BackendRegistration>(std::move(registration));
}

void BackendRegistry::Unregister(std::string_view name) {
  ForkGuardedLock lock(mutex_);
  entries_.erase(AsciiLower(name));
}

const BackendRegistration* BackendRegistry::Find(std::string_view name) {
  std::string key = AsciiLower(name);
  {
    ForkGuardedLock lock(mutex_);
    if (const BackendRegistration* own = FindIn(entries_, key)) return own;
  }
  Builtins& b = GetBuiltins();
  ForkGuardedLock lock(b.mutex);
  return FindIn(b.entries, key);
}

std::vector<std::string> BackendRegistry::Names() {
  std::map<std::string, std::string> names;  // key -> name, this registry's over the built-ins
  {
    Builtins& b = GetBuiltins();
    ForkGuardedLock lock(b.mutex);
    for (const auto& [key, reg] : b.entries) names[key] = reg->name;
  }
  ForkGuardedLock lock(mutex_);
  for (const auto& [key, reg] : entries_) names[key] = reg->name;
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const auto& [key, name] : names) out.push_back(name);
  return out;
}

}  // namespace proton
