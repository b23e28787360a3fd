// Python frame provider registration; see python_frames.h.
#include "core/context/python_frames.h"

#include <atomic>

namespace proton {
namespace {
std::atomic<PythonFrameProvider> g_provider{nullptr};
}  // namespace

void SetPythonFrameProvider(PythonFrameProvider provider) { g_provider.store(provider); }
PythonFrameProvider GetPythonFrameProvider() { return g_provider.load(std::memory_order_acquire); }

}  // namespace proton
