// Adds the "cupti" backend to the core's built-in catalogue (profiler.md §1.2, registry.h), which
// every runtime's registry sees: a factory and an availability probe (libcuda.so.1 loads and
// reports at least one device). Runs from a static initializer of libproton.so, which links
// this library whole-archive.
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

// The registry's instance: forwards to a CuptiBackend that is freed with it, except after a
// detach at process exit, where CUPTI keeps our pointer (subscriber user data) and may still
// call it during its own cleanup or the runtime's context teardown: then it is left alive.
std::atomic<CuptiBackend*> g_backend_kept_at_exit{nullptr};  // reachable: no leak report

class OwningCuptiBackend final : public Backend {
 public:
  OwningCuptiBackend() : backend_(new CuptiBackend()) {}
  ~OwningCuptiBackend() override {
    if (ProcessExiting()) {
      g_backend_kept_at_exit.store(backend_, std::memory_order_release);
    } else {
      delete backend_;
    }
  }
  OwningCuptiBackend(const OwningCuptiBackend&) = delete;
  OwningCuptiBackend& operator=(const OwningCuptiBackend&) = delete;
  std::string_view Name() const override { return backend_->Name(); }
  Status Start(BackendSink* sink, std::string_view mode) override {
    return backend_->Start(sink, mode);
  }
  void Flush(bool synchronize) override { backend_->Flush(synchronize); }
  void FlushCompleted() override { backend_->FlushCompleted(); }
  TimestampFn Timestamp() const override { return backend_->Timestamp(); }
  void Stop() override { backend_->Stop(); }
  std::optional<DeviceInfo> QueryDevice(uint32_t device_id) override {
    return backend_->QueryDevice(device_id);
  }

 private:
  CuptiBackend* backend_;
};

const bool kRegistered = AddBuiltinBackend(BackendRegistration{
    "cupti", &DriverHasDevice, [] { return std::unique_ptr<Backend>(new OwningCuptiBackend()); }});

}  // namespace

// Referenced by tests so the linker keeps this file when the library is linked normally.
bool CuptiBackendRegistered() { return kRegistered; }

}  // namespace proton::cupti
