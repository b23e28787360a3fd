// Backend registry: each backend registers a factory and an availability probe, usually from a
// static initializer in its own library part (the CUPTI backend registers "cupti" from
// libproton.so). `start(backend=None)` picks "cupti" when its probe says a driver with at least
// one device is present; otherwise the core warns once and runs scopes-only (profiler.md §1.2).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend/backend.h"

namespace proton {

struct BackendRegistration {
  std::string name;                 // "cupti", "fake"
  std::function<bool()> available;  // cheap; may dlopen the driver
  std::function<std::unique_ptr<Backend>()> create;
};

// Registers (or replaces) a backend. Returns true so it can initialise a static:
//   static const bool kRegistered = proton::RegisterBackend({...});
bool RegisterBackend(BackendRegistration registration);
// Removes a backend (tests).
void UnregisterBackend(std::string_view name);
// The registration named `name`, or nullptr. Names compare case-insensitively.
const BackendRegistration* FindBackend(std::string_view name);
std::vector<std::string> RegisteredBackendNames();

}  // namespace proton
