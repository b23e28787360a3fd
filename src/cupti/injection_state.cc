// The "inside InitializeInjection" flag (see injection_state.h).
#include "cupti/injection_state.h"

namespace proton::cupti {
namespace {
thread_local bool t_in_injection_init = false;
thread_local int t_backend_start_depth = 0;
}  // namespace

bool InInjectionInit() { return t_in_injection_init; }
void SetInInjectionInit(bool inside) { t_in_injection_init = inside; }

bool InBackendStart() { return t_backend_start_depth > 0; }
ScopedBackendStart::ScopedBackendStart() { ++t_backend_start_depth; }
ScopedBackendStart::~ScopedBackendStart() { --t_backend_start_depth; }

}  // namespace proton::cupti
