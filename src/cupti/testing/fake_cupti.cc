// The fake CUPTI and driver tables used by the cupti unit tests.
#include "cupti/testing/fake_cupti.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>

#include "cupti/injection_state.h"

namespace proton::cupti::testing {
namespace {

FakeCupti g_fake;
std::deque<std::string> g_interned;  // stable storage for names

// Graph handles are fake pointers whose numeric value is the CUPTI id.
template <typename Handle>
uint64_t IdOf(Handle handle) {
  return reinterpret_cast<uintptr_t>(handle);
}
template <typename Handle>
Handle HandleOf(uint64_t id) {
  // A fake handle is its id: nothing dereferences it.
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  return reinterpret_cast<Handle>(static_cast<uintptr_t>(id));
}

CUptiResult FakeGetVersion(uint32_t* version) {
  *version = g_fake.library_version;
  return CUPTI_SUCCESS;
}
CUptiResult FakeGetResultString(CUptiResult result, const char** text) {
  if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    *text = "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED";
    return CUPTI_SUCCESS;
  }
  return CUPTI_ERROR_INVALID_PARAMETER;  // let the built-in table answer
}
CUptiResult FakeSubscribe(CUpti_SubscriberHandle* handle, CUpti_CallbackFunc fn, void* user) {
  g_fake.calls.push_back("subscribe");
  // A real cuptiSubscribe may run cuInit, which calls InitializeInjection on this thread.
  g_fake.subscribed_inside_backend_start = InBackendStart();
  if (g_fake.subscribe_result != CUPTI_SUCCESS) return g_fake.subscribe_result;
  *handle = reinterpret_cast<CUpti_SubscriberHandle>(0x5);
  g_fake.callback = fn;
  g_fake.userdata = user;
  g_fake.subscribed = true;
  return CUPTI_SUCCESS;
}
CUptiResult FakeUnsubscribe(CUpti_SubscriberHandle) {
  g_fake.calls.push_back("unsubscribe");
  g_fake.subscribed = false;
  g_fake.callback = nullptr;
  return g_fake.unsubscribe_result;
}
CUptiResult FakeEnableCallback(uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain d,
                               CUpti_CallbackId id) {
  if (enable != 0) g_fake.enabled_callbacks.emplace_back(d, id);
  return CUPTI_SUCCESS;
}
CUptiResult FakeEnableDomain(uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain d) {
  g_fake.calls.push_back("enable_domain(" + std::to_string(enable) + "," +
                         std::to_string(static_cast<int>(d)) + ")");
  return CUPTI_SUCCESS;
}
CUptiResult FakeActivityEnable(CUpti_ActivityKind kind) {
  g_fake.enabled_kinds.push_back(kind);
  return CUPTI_SUCCESS;
}
CUptiResult FakeActivityDisable(CUpti_ActivityKind) {
  g_fake.calls.push_back("activity_disable");
  return g_fake.activity_disable_result;
}
CUptiResult FakeRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                  CUpti_BuffersCallbackCompleteFunc complete) {
  g_fake.request = request;
  g_fake.complete = complete;
  return CUPTI_SUCCESS;
}

// Delivers the ready records in buffers of at most records_per_buffer records.
void Deliver(bool forced) {
  std::vector<KernelActivity> ready;
  std::vector<FakeCupti::Pending> later;
  for (const FakeCupti::Pending& p : g_fake.pending) {
    if (forced || p.ready_after_flushes <= g_fake.flush_count) {
      ready.push_back(p.record);
    } else {
      later.push_back(p);
    }
  }
  g_fake.pending = later;
  size_t index = 0;
  while (index < ready.size()) {
    uint8_t* buffer = nullptr;
    size_t size = 0, max_records = 0;
    g_fake.request(&buffer, &size, &max_records);
    if (buffer == nullptr) return;
    size_t capacity = size / sizeof(KernelActivity);
    size_t count = std::min({capacity, g_fake.records_per_buffer, ready.size() - index});
    std::memcpy(buffer, ready.data() + index, count * sizeof(KernelActivity));
    index += count;
    g_fake.complete(nullptr, 0, buffer, size, count * sizeof(KernelActivity));
  }
}

CUptiResult FakeFlushAll(uint32_t flag) {
  bool forced = (flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0;
  if (forced) {
    ++g_fake.forced_flush_count;
  } else {
    ++g_fake.flush_count;
  }
  if (g_fake.request != nullptr) Deliver(forced);
  return g_fake.flush_result;
}
CUptiResult FakeGetNextRecord(uint8_t* buffer, size_t valid, CUpti_Activity** record) {
  uint8_t* next =
      *record == nullptr ? buffer : reinterpret_cast<uint8_t*>(*record) + sizeof(KernelActivity);
  if (next + sizeof(KernelActivity) > buffer + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = reinterpret_cast<CUpti_Activity*>(next);
  return CUPTI_SUCCESS;
}
CUptiResult FakeGetNumDropped(CUcontext, uint32_t, size_t* dropped) {
  *dropped = g_fake.dropped_per_buffer;
  return CUPTI_SUCCESS;
}
CUptiResult FakeGetGraphId(CUgraph graph, uint32_t* id) {
  *id = static_cast<uint32_t>(IdOf(graph));
  return CUPTI_SUCCESS;
}
CUptiResult FakeGetGraphExecId(CUgraphExec exec, uint32_t* id) {
  *id = static_cast<uint32_t>(IdOf(exec));
  return CUPTI_SUCCESS;
}
CUptiResult FakeGetGraphNodeId(CUgraphNode node, uint64_t* id) {
  *id = IdOf(node);
  return CUPTI_SUCCESS;
}
CUptiResult FakeGetTimestamp(uint64_t* ns) {
  *ns = 5'000'000'000;
  return CUPTI_SUCCESS;
}
CUptiResult FakeFinalize() {
  g_fake.calls.push_back("finalize");
  return g_fake.finalize_result;
}

CUptiResult FakePcEnable(CUpti_PCSamplingEnableParams* params) {
  g_fake.pc_calls.push_back("enable");
  if (params->size != CUpti_PCSamplingEnableParamsSize) return CUPTI_ERROR_INVALID_PARAMETER;
  return g_fake.pc_enable_result;
}
CUptiResult FakePcDisable(CUpti_PCSamplingDisableParams*) {
  g_fake.pc_calls.push_back("disable");
  return CUPTI_SUCCESS;
}
CUptiResult FakePcStart(CUpti_PCSamplingStartParams*) {
  g_fake.pc_calls.push_back("start");
  return g_fake.pc_start_result;
}
// Moves up to collectNumPcs ready PCs, each with at most the configured number of reasons,
// into `data`, as CUPTI fills a CUpti_PCSamplingData.
CUptiResult HandOutPcs(CUpti_PCSamplingData* data) {
  if (data == nullptr || data->pPcData == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  size_t count = std::min(data->collectNumPcs, g_fake.pcs_ready.size());
  size_t room = g_fake.pc_config.stall_reasons.size();
  for (size_t i = 0; i < count; ++i) {
    const FakeCupti::Pc& pc = g_fake.pcs_ready[i];
    CUpti_PCSamplingPCData& out = data->pPcData[i];
    if (pc.reasons.size() > room) return CUPTI_ERROR_INVALID_PARAMETER;
    out.cubinCrc = pc.cubin_crc;
    out.pcOffset = pc.pc_offset;
    out.functionIndex = pc.function_index;
    g_interned.push_back(pc.function);
    out.functionName = g_interned.back().data();
    out.stallReasonCount = pc.reasons.size();
    for (size_t j = 0; j < pc.reasons.size(); ++j) {
      out.stallReason[j].pcSamplingStallReasonIndex = pc.reasons[j].first;
      out.stallReason[j].samples = pc.reasons[j].second;
    }
  }
  g_fake.pcs_ready.erase(g_fake.pcs_ready.begin(),
                         g_fake.pcs_ready.begin() + static_cast<std::ptrdiff_t>(count));
  data->totalNumPcs = count;
  data->remainingNumPcs = g_fake.pcs_ready.size();
  data->droppedSamples = g_fake.dropped_samples_per_read;
  return CUPTI_SUCCESS;
}
// The range's PCs become ready; with stop_fills_configured_buffer the first of them land in
// the configuration's data buffer at once, as CUDA 13.0's CUPTI delivers them.
CUptiResult FakePcStop(CUpti_PCSamplingStopParams*) {
  g_fake.pc_calls.push_back("stop");
  for (auto& pc : g_fake.pcs_of_next_launch) g_fake.pcs_ready.push_back(std::move(pc));
  g_fake.pcs_of_next_launch.clear();
  if (g_fake.stop_fills_configured_buffer && g_fake.pc_configured_buffer != nullptr) {
    return HandOutPcs(g_fake.pc_configured_buffer);
  }
  return CUPTI_SUCCESS;
}
CUptiResult FakePcGetData(CUpti_PCSamplingGetDataParams* params) {
  g_fake.pc_calls.push_back("get_data");
  g_fake.pc_last_read_buffer = static_cast<CUpti_PCSamplingData*>(params->pcSamplingData);
  return HandOutPcs(static_cast<CUpti_PCSamplingData*>(params->pcSamplingData));
}
CUptiResult FakePcSetConfiguration(CUpti_PCSamplingConfigurationInfoParams* params) {
  g_fake.pc_calls.push_back("configure");
  FakeCupti::PcConfig& config = g_fake.pc_config;
  config = FakeCupti::PcConfig{};
  config.attributes = static_cast<int>(params->numAttributes);
  for (size_t i = 0; i < params->numAttributes; ++i) {
    const CUpti_PCSamplingConfigurationInfo& info = params->pPCSamplingConfigurationInfo[i];
    const auto& d = info.attributeData;
    switch (info.attributeType) {
      case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON:
        config.stall_reasons.assign(
            d.stallReasonData.pStallReasonIndex,
            d.stallReasonData.pStallReasonIndex + d.stallReasonData.stallReasonCount);
        break;
      case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD:
        config.period_exponent = d.samplingPeriodData.samplingPeriod;
        break;
      case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE:
        config.hardware_buffer = d.hardwareBufferSizeData.hardwareBufferSize;
        break;
      case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE:
        config.scratch_buffer = d.scratchBufferSizeData.scratchBufferSize;
        break;
      case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER:
        g_fake.pc_configured_buffer =
            static_cast<CUpti_PCSamplingData*>(d.samplingDataBufferData.samplingDataBuffer);
        config.collect_num_pcs = g_fake.pc_configured_buffer->collectNumPcs;
        break;
      case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL:
        config.start_stop_control = d.enableStartStopControlData.enableStartStopControl;
        break;
      case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE:
        config.collection_mode = static_cast<int>(d.collectionModeData.collectionMode);
        break;
      default: return CUPTI_ERROR_INVALID_PARAMETER;
    }
  }
  return CUPTI_SUCCESS;
}
CUptiResult FakePcGetNumStallReasons(CUpti_PCSamplingGetNumStallReasonsParams* params) {
  g_fake.pc_calls.push_back("num_stall_reasons");
  *params->numStallReasons = g_fake.stall_reason_names.size();
  return CUPTI_SUCCESS;
}
CUptiResult FakePcGetStallReasons(CUpti_PCSamplingGetStallReasonsParams* params) {
  g_fake.pc_calls.push_back("stall_reasons");
  if (params->numStallReasons != g_fake.stall_reason_names.size()) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  for (size_t i = 0; i < params->numStallReasons; ++i) {
    std::snprintf(params->stallReasons[i], CUPTI_STALL_REASON_STRING_SIZE, "%s",
                  g_fake.stall_reason_names[i].c_str());
    params->stallReasonIndex[i] = g_fake.stall_reason_indices[i];
  }
  return CUPTI_SUCCESS;
}
CUptiResult FakeGetSassToSource(CUpti_GetSassToSourceCorrelationParams* params) {
  g_fake.sass_queries.push_back(std::string(params->functionName) + "@" +
                                std::to_string(params->pcOffset));
  if (g_fake.sass_file.empty() || params->cubin == nullptr) return CUPTI_ERROR_UNKNOWN;
  params->lineNumber = g_fake.sass_line;
  params->fileName = strdup(g_fake.sass_file.c_str());  // the caller frees both
  params->dirName = strdup(g_fake.sass_dir.c_str());
  return CUPTI_SUCCESS;
}
uint64_t CrcOf(const char* data, size_t size) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ static_cast<uint8_t>(data[i])) * 1099511628211ull;
  return hash;
}
CUptiResult FakeGetCubinCrc(CUpti_GetCubinCrcParams* params) {
  params->cubinCrc = CrcOf(static_cast<const char*>(params->cubin), params->cubinSize);
  return CUPTI_SUCCESS;
}

CUresult FakeInit(unsigned int) { return CUDA_SUCCESS; }
CUresult FakeDriverGetVersion(int* version) {
  *version = 13000;
  return CUDA_SUCCESS;
}
CUresult FakeGetErrorName(CUresult, const char** name) {
  *name = "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
CUresult FakeDeviceGetCount(int* count) {
  *count = 1;
  return CUDA_SUCCESS;
}
CUresult FakeDeviceGet(CUdevice* device, int ordinal) {
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult FakeDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice) {
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 132; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *value = 1980000; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *value = 3201000; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *value = 6016; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
CUresult FakeCtxPush(CUcontext context) {
  g_fake.pushed_contexts.push_back(context);
  return CUDA_SUCCESS;
}
CUresult FakeCtxPop(CUcontext* context) {
  *context = nullptr;
  return CUDA_SUCCESS;
}
CUresult FakeCtxSynchronize() {
  ++g_fake.synchronize_count;
  if (g_fake.on_synchronize) g_fake.on_synchronize();
  g_fake.pc_calls.push_back("sync");
  return CUDA_SUCCESS;
}

void Emit(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (g_fake.callback != nullptr) g_fake.callback(g_fake.userdata, domain, id, data);
}

}  // namespace

CUcontext FakeContext(uintptr_t number) { return HandleOf<CUcontext>(number); }

FakeCupti& Fake() { return g_fake; }

void ResetFake() {
  g_fake = FakeCupti();
  g_interned.clear();
}

const CuptiApi* FakeCuptiApi() {
  static const CuptiApi kApi = [] {
    CuptiApi a;
    a.path = "/fake/libcupti.so";
    a.get_version = &FakeGetVersion;
    a.get_result_string = &FakeGetResultString;
    a.subscribe = &FakeSubscribe;
    a.unsubscribe = &FakeUnsubscribe;
    a.enable_callback = &FakeEnableCallback;
    a.enable_domain = &FakeEnableDomain;
    a.activity_enable = &FakeActivityEnable;
    a.activity_disable = &FakeActivityDisable;
    a.activity_register_callbacks = &FakeRegisterCallbacks;
    a.activity_flush_all = &FakeFlushAll;
    a.activity_get_next_record = &FakeGetNextRecord;
    a.activity_get_num_dropped_records = &FakeGetNumDropped;
    a.get_graph_id = &FakeGetGraphId;
    a.get_graph_exec_id = &FakeGetGraphExecId;
    a.get_graph_node_id = &FakeGetGraphNodeId;
    a.get_timestamp = &FakeGetTimestamp;
    a.finalize = &FakeFinalize;
    a.pc_sampling_enable = &FakePcEnable;
    a.pc_sampling_disable = &FakePcDisable;
    a.pc_sampling_start = &FakePcStart;
    a.pc_sampling_stop = &FakePcStop;
    a.pc_sampling_get_data = &FakePcGetData;
    a.pc_sampling_set_configuration = &FakePcSetConfiguration;
    a.pc_sampling_get_num_stall_reasons = &FakePcGetNumStallReasons;
    a.pc_sampling_get_stall_reasons = &FakePcGetStallReasons;
    a.get_sass_to_source_correlation = &FakeGetSassToSource;
    a.get_cubin_crc = &FakeGetCubinCrc;
    return a;
  }();
  return &kApi;
}

const DriverApi* FakeDriverApi() {
  static const DriverApi kApi = [] {
    DriverApi a;
    a.init = &FakeInit;
    a.driver_get_version = &FakeDriverGetVersion;
    a.get_error_name = &FakeGetErrorName;
    a.device_get_count = &FakeDeviceGetCount;
    a.device_get = &FakeDeviceGet;
    a.device_get_attribute = &FakeDeviceGetAttribute;
    a.ctx_push_current = &FakeCtxPush;
    a.ctx_pop_current = &FakeCtxPop;
    a.ctx_synchronize = &FakeCtxSynchronize;
    return a;
  }();
  return &kApi;
}

KernelActivity MakeKernel(uint32_t correlation_id, uint64_t start, uint64_t end,
                          const std::string& name, uint32_t stream, uint32_t device,
                          uint32_t graph_id, uint64_t graph_node_id) {
  KernelActivity k;
  std::memset(&k, 0, sizeof(k));
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.correlationId = correlation_id;
  k.start = start;
  k.end = end;
  k.streamId = stream;
  k.deviceId = device;
  k.graphId = graph_id;
  k.graphNodeId = graph_node_id;
  g_interned.push_back(name);
  k.name = g_interned.back().c_str();
  return k;
}

std::vector<uint8_t> PackRecords(const std::vector<KernelActivity>& records) {
  std::vector<uint8_t> buffer(records.size() * sizeof(KernelActivity));
  if (!records.empty()) std::memcpy(buffer.data(), records.data(), buffer.size());
  return buffer;
}

void EmitLaunch(CUpti_CallbackId id, CUpti_ApiCallbackSite site, uint32_t correlation_id,
                const char* symbol, CUcontext context, CUresult result) {
  CUpti_CallbackData data{};
  data.callbackSite = site;
  data.functionName = "cuLaunchKernel";
  data.correlationId = correlation_id;
  data.symbolName = symbol;
  data.context = context;
  data.functionReturnValue = site == CUPTI_API_EXIT ? &result : nullptr;
  Emit(CUPTI_CB_DOMAIN_DRIVER_API, id, &data);
}

void EmitGraphLaunch(CUpti_ApiCallbackSite site, uint32_t correlation_id, uint32_t exec_id) {
  cuGraphLaunch_params params{HandleOf<CUgraphExec>(exec_id), nullptr};
  CUresult result = CUDA_SUCCESS;
  CUpti_CallbackData data{};
  data.callbackSite = site;
  data.functionName = "cuGraphLaunch";
  data.correlationId = correlation_id;
  data.context = FakeContext();
  data.functionParams = &params;
  data.functionReturnValue = site == CUPTI_API_EXIT ? &result : nullptr;
  Emit(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, &data);
}

void EmitCapture(bool begin, CUpti_ApiCallbackSite site) {
  CUresult result = CUDA_SUCCESS;
  CUpti_CallbackData data{};
  data.callbackSite = site;
  data.functionReturnValue = site == CUPTI_API_EXIT ? &result : nullptr;
  Emit(CUPTI_CB_DOMAIN_DRIVER_API,
       begin ? CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2
             : CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture,
       &data);
}

void EmitRuntimeCapture(bool begin, CUpti_ApiCallbackSite site, CUstream stream) {
  int result = 0;                          // cudaSuccess
  CUstream params[2] = {stream, nullptr};  // cudaStreamBeginCapture_v10000_params: stream first
  CUpti_CallbackData data{};
  data.callbackSite = site;
  data.functionName = begin ? "cudaStreamBeginCapture" : "cudaStreamEndCapture";
  data.functionParams = params;
  data.functionReturnValue = site == CUPTI_API_EXIT ? &result : nullptr;
  Emit(CUPTI_CB_DOMAIN_RUNTIME_API,
       begin ? CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000
             : CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000,
       &data);
}

void EmitGraphResource(CUpti_CallbackId id, uint64_t node_id, uint32_t graph_id, uint32_t exec_id,
                       uint64_t original_node_id, CUgraphNodeType type) {
  CUpti_GraphData graph{};
  graph.graph = HandleOf<CUgraph>(graph_id);
  graph.node = HandleOf<CUgraphNode>(node_id);
  graph.originalNode = HandleOf<CUgraphNode>(original_node_id);
  graph.nodeType = type;
  graph.graphExec = HandleOf<CUgraphExec>(exec_id);
  CUpti_ResourceData data{};
  data.resourceDescriptor = &graph;
  Emit(CUPTI_CB_DOMAIN_RESOURCE, id, &data);
}

void EmitNvtxPush(const char* message) {
  const char* params[1] = {message};
  CUpti_NvtxData data{};
  data.functionName = "nvtxRangePushA";
  data.functionParams = params;
  Emit(CUPTI_CB_DOMAIN_NVTX, CUPTI_CBID_NVTX_nvtxRangePushA, &data);
}

void EmitModuleLoaded(const std::vector<char>& cubin, bool unloading) {
  CUpti_ModuleResourceData module{};
  module.moduleId = 1;
  module.cubinSize = cubin.size();
  module.pCubin = cubin.data();
  CUpti_ResourceData data{};
  data.context = FakeContext();
  data.resourceDescriptor = &module;
  Emit(CUPTI_CB_DOMAIN_RESOURCE,
       unloading ? CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING : CUPTI_CBID_RESOURCE_MODULE_LOADED,
       &data);
}

void EmitContextDestroying(CUcontext context) {
  CUpti_ResourceData data{};
  data.context = context;
  Emit(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, &data);
}

uint64_t FakeCubinCrc(const std::vector<char>& cubin) { return CrcOf(cubin.data(), cubin.size()); }

void OfferHopperStallReasons() {
  // As CUPTI lists them on sm_90: each reason, its _not_issued twin, and reasons no counter
  // name matches (not_selected with a lower-case s, gmma).
  const char* reasons[] = {"branch_resolving",
                           "no_instructions",
                           "short_scoreboard",
                           "wait",
                           "long_scoreboard",
                           "tex_throttle",
                           "barrier",
                           "membar",
                           "imc_miss",
                           "mio_throttle",
                           "math_pipe_throttle",
                           "drain",
                           "lg_throttle",
                           "not_selected",
                           "misc",
                           "dispatch_stall",
                           "sleeping",
                           "selected",
                           "gmma"};
  uint32_t index = 0;
  for (const char* reason : reasons) {
    for (const char* suffix : {"", "_not_issued"}) {
      g_fake.stall_reason_names.push_back(std::string("smsp__pcsamp_warps_issue_stalled_") +
                                          reason + suffix);
      g_fake.stall_reason_indices.push_back(index++);
    }
  }
}

void EmitNvtxPop() {
  CUpti_NvtxData data{};
  data.functionName = "nvtxRangePop";
  Emit(CUPTI_CB_DOMAIN_NVTX, CUPTI_CBID_NVTX_nvtxRangePop, &data);
}

}  // namespace proton::cupti::testing
