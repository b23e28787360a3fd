// Typed function tables for the CUDA driver and CUPTI. Nothing links against libcuda or
// libcupti: both are dlopen'ed (profiler.md §5.1) and every entry point used is resolved with
// dlsym into these tables. Tests fill the tables with fakes, so the backend logic runs
// unchanged without a GPU (§5.15). This header (with the rest of src/cupti) is the only code
// that includes CUDA/CUPTI headers.
#pragma once

#include <cuda.h>
#include <cupti.h>
#include <cupti_pcsampling.h>

#include <string>

#include "util/status.h"

namespace proton::cupti {

// The driver entry points used by the backend. Names are those of the C API without the
// `cu` prefix; `_v2` variants are resolved where cuda.h maps the plain name to them.
struct DriverApi {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driver_get_version = nullptr;
  decltype(&::cuGetErrorName) get_error_name = nullptr;
  decltype(&::cuDeviceGetCount) device_get_count = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&::cuCtxPushCurrent_v2) ctx_push_current = nullptr;
  decltype(&::cuCtxPopCurrent_v2) ctx_pop_current = nullptr;
  decltype(&::cuCtxSynchronize) ctx_synchronize = nullptr;
};

// The CUPTI entry points used by the backend. `path` names the file they came from, for
// messages and for NVTX_INJECTION64_PATH.
struct CuptiApi {
  std::string path;
  decltype(&::cuptiGetVersion) get_version = nullptr;
  decltype(&::cuptiGetResultString) get_result_string = nullptr;
  decltype(&::cuptiSubscribe) subscribe = nullptr;
  decltype(&::cuptiUnsubscribe) unsubscribe = nullptr;
  decltype(&::cuptiEnableCallback) enable_callback = nullptr;
  decltype(&::cuptiEnableDomain) enable_domain = nullptr;
  decltype(&::cuptiActivityEnable) activity_enable = nullptr;
  decltype(&::cuptiActivityDisable) activity_disable = nullptr;
  decltype(&::cuptiActivityRegisterCallbacks) activity_register_callbacks = nullptr;
  decltype(&::cuptiActivityFlushAll) activity_flush_all = nullptr;
  decltype(&::cuptiActivityGetNextRecord) activity_get_next_record = nullptr;
  decltype(&::cuptiActivityGetNumDroppedRecords) activity_get_num_dropped_records = nullptr;
  decltype(&::cuptiGetGraphId) get_graph_id = nullptr;
  decltype(&::cuptiGetGraphExecId) get_graph_exec_id = nullptr;
  decltype(&::cuptiGetGraphNodeId) get_graph_node_id = nullptr;
  decltype(&::cuptiGetTimestamp) get_timestamp = nullptr;
  decltype(&::cuptiFinalize) finalize = nullptr;
  // PC sampling (§5.13). Optional: null when the library lacks them (the kernel modes do not
  // need them; pcsampling refuses to start without them).
  decltype(&::cuptiPCSamplingEnable) pc_sampling_enable = nullptr;
  decltype(&::cuptiPCSamplingDisable) pc_sampling_disable = nullptr;
  decltype(&::cuptiPCSamplingStart) pc_sampling_start = nullptr;
  decltype(&::cuptiPCSamplingStop) pc_sampling_stop = nullptr;
  decltype(&::cuptiPCSamplingGetData) pc_sampling_get_data = nullptr;
  decltype(&::cuptiPCSamplingSetConfigurationAttribute) pc_sampling_set_configuration = nullptr;
  decltype(&::cuptiPCSamplingGetNumStallReasons) pc_sampling_get_num_stall_reasons = nullptr;
  decltype(&::cuptiPCSamplingGetStallReasons) pc_sampling_get_stall_reasons = nullptr;
  decltype(&::cuptiGetSassToSourceCorrelation) get_sass_to_source_correlation = nullptr;
  decltype(&::cuptiGetCubinCrc) get_cubin_crc = nullptr;
  // The first PC-sampling entry point the library lacks, or nullptr when it has them all.
  const char* MissingPcSamplingSymbol() const;
};

// Resolves every entry of a table from an open dlopen handle. Fails naming the first missing
// symbol and the file.
Status ResolveDriverApi(void* handle, const std::string& path, DriverApi* api);
Status ResolveCuptiApi(void* handle, const std::string& path, CuptiApi* api);

// "cuptiSubscribe failed: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED (39)". Symbolic names
// come from cuptiGetResultString / cuGetErrorName when the table has them, else from a small
// built-in list, else "CUPTI error <n>".
std::string CuptiResultName(const CuptiApi* api, CUptiResult result);
std::string DriverResultName(const DriverApi* api, CUresult result);
std::string CuptiCallError(const CuptiApi* api, const char* function, CUptiResult result);
std::string DriverCallError(const DriverApi* api, const char* function, CUresult result);

}  // namespace proton::cupti
