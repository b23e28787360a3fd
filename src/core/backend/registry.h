// Backend registry (profiler.md §1.2): each backend is a factory and an availability probe.
// `start(backend=None)` picks "cupti" when its probe says a driver with at least one device is
// present; otherwise the core warns once and runs scopes-only.
//
// Each Runtime owns one BackendRegistry (src/core/runtime/runtime.h). A backend reaches it by
// one of two paths: the entry point names it in RuntimeOptions::backends (or a test calls
// Runtime::backends().Register), or, for a backend linked into the library itself (CUPTI in
// libproton.so), a static initializer adds it to the built-in catalogue with AddBuiltinBackend.
// A runtime's registry looks up its own registrations first, then the catalogue, so the
// catalogue works whatever order the library's static initializers run in.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend/backend.h"
#include "core/fork_guard.h"

namespace proton {

struct BackendRegistration {
  std::string name;                 // "cupti", "fake"
  std::function<bool()> available;  // cheap; may dlopen the driver
  std::function<std::unique_ptr<Backend>()> create;
};

// Adds a backend that is part of the linked code to the catalogue every runtime sees. Only
// from a static initializer; returns true so it can initialise a static:
//   static const bool kAdded = proton::AddBuiltinBackend({...});
bool AddBuiltinBackend(BackendRegistration registration);

// Thread: any (API calls, tests).
class BackendRegistry {
 public:
  BackendRegistry() = default;
  BackendRegistry(const BackendRegistry&) = delete;
  BackendRegistry& operator=(const BackendRegistry&) = delete;

  // Registers (or replaces) a backend of this registry.
  void Register(BackendRegistration registration) PROTON_EXCLUDES(mutex_);
  // Removes a backend of this registry (tests); the built-ins stay.
  void Unregister(std::string_view name) PROTON_EXCLUDES(mutex_);
  // The registration named `name` (this registry's, else a built-in), or nullptr. Names
  // compare case-insensitively. The pointer lives as long as the registration.
  const BackendRegistration* Find(std::string_view name) PROTON_EXCLUDES(mutex_);
  std::vector<std::string> Names() PROTON_EXCLUDES(mutex_);

 private:
  ForkGuardedMutex mutex_{LockRank::kLeaf};
  std::map<std::string, std::unique_ptr<BackendRegistration>> entries_ PROTON_GUARDED_BY(mutex_);
};

}  // namespace proton
