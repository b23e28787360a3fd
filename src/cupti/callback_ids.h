// The CUPTI callback ids the backend enables (profiler.md §5.3), one list per concern, and the
// classification used in the callback hot path. Individual ids only, never whole domains.
#pragma once

#include <cupti.h>

#include <span>

namespace proton::cupti {

// Driver API kernel launches (runtime launches reach these too).
std::span<const CUpti_CallbackId> KernelLaunchIds();
// cuGraphLaunch and its per-thread-stream variant.
std::span<const CUpti_CallbackId> GraphLaunchIds();
// cuStreamBeginCapture* and cuStreamEndCapture*.
std::span<const CUpti_CallbackId> CaptureBeginIds();
std::span<const CUpti_CallbackId> CaptureEndIds();
// Runtime API domain: cudaStreamBeginCapture*, cudaStreamBeginCaptureToGraph*,
// cudaStreamEndCapture*. The only runtime callbacks: launches reach the driver ids.
std::span<const CUpti_CallbackId> RuntimeCaptureBeginIds();
std::span<const CUpti_CallbackId> RuntimeCaptureEndIds();
// Resource domain: graph, node and exec lifetime.
std::span<const CUpti_CallbackId> GraphResourceIds();
// Resource domain, pcsampling mode only: module load/unload (cubins for source lines) and
// context destruction (sampling disabled there).
std::span<const CUpti_CallbackId> PcSamplingResourceIds();
// NVTX domain: nvtxRangePushA and nvtxRangePop.
std::span<const CUpti_CallbackId> NvtxIds();

enum class DriverCallKind { kOther, kKernelLaunch, kGraphLaunch, kCaptureBegin, kCaptureEnd };
DriverCallKind ClassifyDriverCall(CUpti_CallbackId id);
// kCaptureBegin, kCaptureEnd or kOther for a runtime API callback id.
DriverCallKind ClassifyRuntimeCall(CUpti_CallbackId id);

}  // namespace proton::cupti
