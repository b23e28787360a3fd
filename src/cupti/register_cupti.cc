// Registers the "cupti" backend with the core's registry (profiler.md §1.2): a factory and an
// availability probe (libcuda.so.1 loads and reports at least one device). Runs from a static
// initializer of libproton.so, which links this library whole-archive.
#include <atomic>
#include <memory>

#include "core/backend/registry.h"
#include "cupti/cupti_backend.h"
#include "cupti/injection_state.h"
#include "cupti/library_loader.h"

namespace proton::cupti {
namespace {

bool DriverHasDevice() {
  // Inside InitializeInjection the driver is running cuInit and has called us: it exists, and
  // calling cuInit again from there is not allowed.
  if (InInjectionInit()) return true;
  ScopedBackendStart starting;  // cuInit below may call InitializeInjection on this thread
  Result<const DriverApi*> driver = LoadDriver();
  if (!driver.ok()) return false;
  const DriverApi* api = driver.value();
  ScopedCallbackGuard guard;
  if (api->init(0) != CUDA_SUCCESS) return false;
  int count = 0;
  return api->device_get_count(&count) == CUDA_SUCCESS && count > 0;
}

const bool kRegistered = RegisterBackend(BackendRegistration{
    "cupti", &DriverHasDevice, [] { return std::unique_ptr<Backend>(new CuptiBackend()); }});

}  // namespace

// Referenced by tests so the linker keeps this file when the library is linked normally.
bool CuptiBackendRegistered() { return kRegistered; }

}  // namespace proton::cupti
