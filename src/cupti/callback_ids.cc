// Callback id lists and classification.
#include "cupti/callback_ids.h"

#include <algorithm>
#include <array>

namespace proton::cupti {
namespace {

constexpr std::array<CUpti_CallbackId, 10> kKernelLaunch = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
};
constexpr std::array<CUpti_CallbackId, 2> kGraphLaunch = {
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};
constexpr std::array<CUpti_CallbackId, 6> kCaptureBegin = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz,
};
constexpr std::array<CUpti_CallbackId, 2> kCaptureEnd = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture,
    CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz,
};
// The runtime's capture calls too: the runtime may reach the driver's capture entry through a
// path that raises no driver-API callback (a native CUDA 13 program's graph then looked as if
// it had been captured before profiling), and the runtime callback is raised by cudart itself.
constexpr std::array<CUpti_CallbackId, 4> kRuntimeCaptureBegin = {
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030,
};
constexpr std::array<CUpti_CallbackId, 2> kRuntimeCaptureEnd = {
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000,
};
constexpr std::array<CUpti_CallbackId, 6> kGraphResource = {
    CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED,          CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED,
    CUPTI_CBID_RESOURCE_GRAPHNODE_DESTROY_STARTING, CUPTI_CBID_RESOURCE_GRAPH_DESTROY_STARTING,
    CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED,          CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING,
};
constexpr std::array<CUpti_CallbackId, 3> kPcSamplingResource = {
    CUPTI_CBID_RESOURCE_MODULE_LOADED,
    CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
    CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
};
constexpr std::array<CUpti_CallbackId, 2> kNvtx = {
    CUPTI_CBID_NVTX_nvtxRangePushA,
    CUPTI_CBID_NVTX_nvtxRangePop,
};

template <size_t kSize>
bool Contains(const std::array<CUpti_CallbackId, kSize>& ids, CUpti_CallbackId id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

std::span<const CUpti_CallbackId> KernelLaunchIds() { return kKernelLaunch; }
std::span<const CUpti_CallbackId> GraphLaunchIds() { return kGraphLaunch; }
std::span<const CUpti_CallbackId> CaptureBeginIds() { return kCaptureBegin; }
std::span<const CUpti_CallbackId> CaptureEndIds() { return kCaptureEnd; }
std::span<const CUpti_CallbackId> RuntimeCaptureBeginIds() { return kRuntimeCaptureBegin; }
std::span<const CUpti_CallbackId> RuntimeCaptureEndIds() { return kRuntimeCaptureEnd; }
std::span<const CUpti_CallbackId> GraphResourceIds() { return kGraphResource; }
std::span<const CUpti_CallbackId> PcSamplingResourceIds() { return kPcSamplingResource; }
std::span<const CUpti_CallbackId> NvtxIds() { return kNvtx; }

DriverCallKind ClassifyDriverCall(CUpti_CallbackId id) {
  // Kernel launches are by far the most frequent: test them first.
  if (Contains(kKernelLaunch, id)) return DriverCallKind::kKernelLaunch;
  if (Contains(kGraphLaunch, id)) return DriverCallKind::kGraphLaunch;
  if (Contains(kCaptureBegin, id)) return DriverCallKind::kCaptureBegin;
  if (Contains(kCaptureEnd, id)) return DriverCallKind::kCaptureEnd;
  return DriverCallKind::kOther;
}

DriverCallKind ClassifyRuntimeCall(CUpti_CallbackId id) {
  if (Contains(kRuntimeCaptureBegin, id)) return DriverCallKind::kCaptureBegin;
  if (Contains(kRuntimeCaptureEnd, id)) return DriverCallKind::kCaptureEnd;
  return DriverCallKind::kOther;
}

}  // namespace proton::cupti
