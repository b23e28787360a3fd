// The "inside InitializeInjection" flag (see injection_state.h).
#include "cupti/injection_state.h"

namespace proton::cupti {
namespace {
thread_local bool t_in_injection_init = false;
}  // namespace

bool InInjectionInit() { return t_in_injection_init; }
void SetInInjectionInit(bool inside) { t_in_injection_init = inside; }

}  // namespace proton::cupti
