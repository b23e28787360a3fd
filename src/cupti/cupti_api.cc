// dlsym resolution of the driver and CUPTI tables, and symbolic names for their result codes.
#include "cupti/cupti_api.h"

#include <dlfcn.h>

#include <string>
#include <utility>

namespace proton::cupti {
namespace {

template <typename Fn>
Status Resolve(void* handle, const std::string& path, const char* symbol, Fn* out) {
  void* address = dlsym(handle, symbol);
  if (address == nullptr) {
    return Status::Error("symbol " + std::string(symbol) + " not found in " + path,
                         ErrorKind::kRuntime);
  }
  *out = reinterpret_cast<Fn>(address);
  return Status();
}

// Used when the library cannot name a code itself (not loaded, or an old CUPTI).
const char* BuiltinCuptiName(CUptiResult result) {
  switch (result) {
    case CUPTI_SUCCESS: return "CUPTI_SUCCESS";
    case CUPTI_ERROR_INVALID_PARAMETER: return "CUPTI_ERROR_INVALID_PARAMETER";
    case CUPTI_ERROR_INVALID_DEVICE: return "CUPTI_ERROR_INVALID_DEVICE";
    case CUPTI_ERROR_INVALID_CONTEXT: return "CUPTI_ERROR_INVALID_CONTEXT";
    case CUPTI_ERROR_NOT_INITIALIZED: return "CUPTI_ERROR_NOT_INITIALIZED";
    case CUPTI_ERROR_MAX_LIMIT_REACHED: return "CUPTI_ERROR_MAX_LIMIT_REACHED";
    case CUPTI_ERROR_NOT_COMPATIBLE: return "CUPTI_ERROR_NOT_COMPATIBLE";
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: return "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      return "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED";
    case CUPTI_ERROR_NOT_SUPPORTED: return "CUPTI_ERROR_NOT_SUPPORTED";
    case CUPTI_ERROR_INVALID_OPERATION: return "CUPTI_ERROR_INVALID_OPERATION";
    case CUPTI_ERROR_OUT_OF_MEMORY: return "CUPTI_ERROR_OUT_OF_MEMORY";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES";
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED";
    case CUPTI_ERROR_UNKNOWN: return "CUPTI_ERROR_UNKNOWN";
    default: return nullptr;
  }
}

// Optional entries: left null when absent (checked by MissingPcSamplingSymbol).
template <typename Fn>
void ResolveOptional(void* handle, const char* symbol, Fn* out) {
  *out = reinterpret_cast<Fn>(dlsym(handle, symbol));
}

void ResolvePcSamplingApi(void* handle, CuptiApi* api) {
  ResolveOptional(handle, "cuptiPCSamplingEnable", &api->pc_sampling_enable);
  ResolveOptional(handle, "cuptiPCSamplingDisable", &api->pc_sampling_disable);
  ResolveOptional(handle, "cuptiPCSamplingStart", &api->pc_sampling_start);
  ResolveOptional(handle, "cuptiPCSamplingStop", &api->pc_sampling_stop);
  ResolveOptional(handle, "cuptiPCSamplingGetData", &api->pc_sampling_get_data);
  ResolveOptional(handle, "cuptiPCSamplingSetConfigurationAttribute",
                  &api->pc_sampling_set_configuration);
  ResolveOptional(handle, "cuptiPCSamplingGetNumStallReasons",
                  &api->pc_sampling_get_num_stall_reasons);
  ResolveOptional(handle, "cuptiPCSamplingGetStallReasons", &api->pc_sampling_get_stall_reasons);
  ResolveOptional(handle, "cuptiGetSassToSourceCorrelation", &api->get_sass_to_source_correlation);
  ResolveOptional(handle, "cuptiGetCubinCrc", &api->get_cubin_crc);
}

}  // namespace

#define PROTON_RESOLVE(table, symbol, field) \
  PROTON_RETURN_IF_ERROR(Resolve(handle, path, symbol, &(table)->field))

Status ResolveDriverApi(void* handle, const std::string& path, DriverApi* api) {
  PROTON_RESOLVE(api, "cuInit", init);
  PROTON_RESOLVE(api, "cuDriverGetVersion", driver_get_version);
  PROTON_RESOLVE(api, "cuGetErrorName", get_error_name);
  PROTON_RESOLVE(api, "cuDeviceGetCount", device_get_count);
  PROTON_RESOLVE(api, "cuDeviceGet", device_get);
  PROTON_RESOLVE(api, "cuDeviceGetAttribute", device_get_attribute);
  PROTON_RESOLVE(api, "cuCtxPushCurrent_v2", ctx_push_current);
  PROTON_RESOLVE(api, "cuCtxPopCurrent_v2", ctx_pop_current);
  PROTON_RESOLVE(api, "cuCtxSynchronize", ctx_synchronize);
  return Status();
}

Status ResolveCuptiApi(void* handle, const std::string& path, CuptiApi* api) {
  api->path = path;
  PROTON_RESOLVE(api, "cuptiGetVersion", get_version);
  PROTON_RESOLVE(api, "cuptiGetResultString", get_result_string);
  PROTON_RESOLVE(api, "cuptiSubscribe", subscribe);
  PROTON_RESOLVE(api, "cuptiUnsubscribe", unsubscribe);
  PROTON_RESOLVE(api, "cuptiEnableCallback", enable_callback);
  PROTON_RESOLVE(api, "cuptiEnableDomain", enable_domain);
  PROTON_RESOLVE(api, "cuptiActivityEnable", activity_enable);
  PROTON_RESOLVE(api, "cuptiActivityDisable", activity_disable);
  PROTON_RESOLVE(api, "cuptiActivityRegisterCallbacks", activity_register_callbacks);
  PROTON_RESOLVE(api, "cuptiActivityFlushAll", activity_flush_all);
  PROTON_RESOLVE(api, "cuptiActivityGetNextRecord", activity_get_next_record);
  PROTON_RESOLVE(api, "cuptiActivityGetNumDroppedRecords", activity_get_num_dropped_records);
  PROTON_RESOLVE(api, "cuptiGetGraphId", get_graph_id);
  PROTON_RESOLVE(api, "cuptiGetGraphExecId", get_graph_exec_id);
  PROTON_RESOLVE(api, "cuptiGetGraphNodeId", get_graph_node_id);
  PROTON_RESOLVE(api, "cuptiGetTimestamp", get_timestamp);
  PROTON_RESOLVE(api, "cuptiFinalize", finalize);
  ResolvePcSamplingApi(handle, api);
  return Status();
}

const char* CuptiApi::MissingPcSamplingSymbol() const {
  const std::pair<const void*, const char*> entries[] = {
      {reinterpret_cast<const void*>(pc_sampling_enable), "cuptiPCSamplingEnable"},
      {reinterpret_cast<const void*>(pc_sampling_disable), "cuptiPCSamplingDisable"},
      {reinterpret_cast<const void*>(pc_sampling_start), "cuptiPCSamplingStart"},
      {reinterpret_cast<const void*>(pc_sampling_stop), "cuptiPCSamplingStop"},
      {reinterpret_cast<const void*>(pc_sampling_get_data), "cuptiPCSamplingGetData"},
      {reinterpret_cast<const void*>(pc_sampling_set_configuration),
       "cuptiPCSamplingSetConfigurationAttribute"},
      {reinterpret_cast<const void*>(pc_sampling_get_num_stall_reasons),
       "cuptiPCSamplingGetNumStallReasons"},
      {reinterpret_cast<const void*>(pc_sampling_get_stall_reasons),
       "cuptiPCSamplingGetStallReasons"},
      {reinterpret_cast<const void*>(get_sass_to_source_correlation),
       "cuptiGetSassToSourceCorrelation"},
      {reinterpret_cast<const void*>(get_cubin_crc), "cuptiGetCubinCrc"},
  };
  for (const auto& [address, name] : entries) {
    if (address == nullptr) return name;
  }
  return nullptr;
}

#undef PROTON_RESOLVE

std::string CuptiResultName(const CuptiApi* api, CUptiResult result) {
  const char* name = nullptr;
  if (api != nullptr && api->get_result_string != nullptr &&
      api->get_result_string(result, &name) == CUPTI_SUCCESS && name != nullptr &&
      name[0] != '\0') {
    return name;
  }
  name = BuiltinCuptiName(result);
  if (name != nullptr) return name;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

std::string DriverResultName(const DriverApi* api, CUresult result) {
  const char* name = nullptr;
  if (api != nullptr && api->get_error_name != nullptr &&
      api->get_error_name(result, &name) == CUDA_SUCCESS && name != nullptr) {
    return name;
  }
  return "CUDA error " + std::to_string(static_cast<int>(result));
}

std::string CuptiCallError(const CuptiApi* api, const char* function, CUptiResult result) {
  return std::string(function) + " failed: " + CuptiResultName(api, result) + " (" +
         std::to_string(static_cast<int>(result)) + ")";
}

std::string DriverCallError(const DriverApi* api, const char* function, CUresult result) {
  return std::string(function) + " failed: " + DriverResultName(api, result) + " (" +
         std::to_string(static_cast<int>(result)) + ")";
}

}  // namespace proton::cupti
