// Whether the calling thread is inside InitializeInjection (profiler.md §5.11), where the CUDA
// driver is in the middle of cuInit: no cuInit or device query may be made from there.
#pragma once

namespace proton::cupti {

bool InInjectionInit();
void SetInInjectionInit(bool inside);

}  // namespace proton::cupti
