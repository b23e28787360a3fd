// Test-only fake CUPTI and driver tables (profiler.md §5.15): plain functions over one global
// FakeCupti state, so CuptiBackend runs unchanged and tests drive it from the test thread:
// launch/capture/graph/NVTX callbacks, and activity records built with the real CUPTI kernel
// record struct, delivered split across buffers, late, dropped or incomplete.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cupti/cupti_api.h"
#include "cupti/record_decoder.h"

namespace proton::cupti::testing {

struct FakeCupti {
  // Results the fake returns.
  CUptiResult subscribe_result = CUPTI_SUCCESS;
  // The results of calls whose failure the backend only counts and warns about.
  CUptiResult flush_result = CUPTI_SUCCESS;
  CUptiResult activity_disable_result = CUPTI_SUCCESS;
  CUptiResult unsubscribe_result = CUPTI_SUCCESS;
  CUptiResult finalize_result = CUPTI_SUCCESS;
  // State recorded from the backend's calls.
  CUpti_CallbackFunc callback = nullptr;
  bool subscribed_inside_backend_start = false;  // InBackendStart() seen by cuptiSubscribe
  void* userdata = nullptr;
  bool subscribed = false;
  std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>> enabled_callbacks;
  std::vector<CUpti_ActivityKind> enabled_kinds;
  CUpti_BuffersCallbackRequestFunc request = nullptr;
  CUpti_BuffersCallbackCompleteFunc complete = nullptr;
  std::vector<std::string> calls;  // "activity_disable", "enable_domain(0,1)", ...
  // Records waiting in CUPTI. Each flush delivers records whose `ready_after_flushes` has
  // passed, at most `records_per_buffer` per buffer; a forced flush delivers everything.
  struct Pending {
    KernelActivity record;
    int ready_after_flushes = 0;
  };
  std::vector<Pending> pending;
  size_t records_per_buffer = 1000;
  size_t dropped_per_buffer = 0;
  int flush_count = 0;
  int forced_flush_count = 0;
  std::vector<std::string> names;  // storage for record names
  // PC sampling (§5.13). Stall reasons CUPTI offers (names[i] has index indices[i]).
  std::vector<std::string> stall_reason_names;
  std::vector<uint32_t> stall_reason_indices;
  uint32_t library_version = CUPTI_API_VERSION;
  CUptiResult pc_enable_result = CUPTI_SUCCESS;
  CUptiResult pc_start_result = CUPTI_SUCCESS;
  std::vector<std::string> pc_calls;  // "enable", "configure", "sync", "start", "stop", ...
  // What the last cuptiPCSamplingSetConfigurationAttribute set.
  struct PcConfig {
    std::vector<uint32_t> stall_reasons;
    uint32_t period_exponent = 0;
    size_t hardware_buffer = 0, scratch_buffer = 0, collect_num_pcs = 0;
    uint32_t start_stop_control = 0;
    int collection_mode = -1;
    int attributes = 0;
  } pc_config;
  // The configuration's data buffer; cuptiPCSamplingStop fills it (up to its collectNumPcs)
  // when stop_fills_configured_buffer is set, and GetData hands out the rest.
  CUpti_PCSamplingData* pc_configured_buffer = nullptr;
  bool stop_fills_configured_buffer = true;
  CUpti_PCSamplingData* pc_last_read_buffer = nullptr;  // what GetData was last given
  // A PC the fake GPU sampled: ready after the next cuptiPCSamplingStop.
  struct Pc {
    uint64_t cubin_crc = 0;
    uint64_t pc_offset = 0;
    uint32_t function_index = 0;
    std::string function;
    std::vector<std::pair<uint32_t, uint32_t>> reasons;  // (stall reason index, samples)
  };
  std::vector<Pc> pcs_of_next_launch;
  std::vector<Pc> pcs_ready;  // moved here by Stop, handed out by Stop and GetData
  uint64_t dropped_samples_per_read = 0;
  // cuptiGetSassToSourceCorrelation: fails unless `sass_file` is set.
  std::string sass_dir, sass_file;
  uint32_t sass_line = 0;
  std::vector<std::string> sass_queries;  // "<function>@<offset>"
  // Driver.
  int synchronize_count = 0;
  std::function<void()> on_synchronize;  // runs inside cuCtxSynchronize (e.g. another launch)
  std::vector<CUcontext> pushed_contexts;
};

FakeCupti& Fake();
void ResetFake();
const CuptiApi* FakeCuptiApi();
const DriverApi* FakeDriverApi();

// A kernel record with the given fields (name interned in the fake).
KernelActivity MakeKernel(uint32_t correlation_id, uint64_t start, uint64_t end,
                          const std::string& name, uint32_t stream = 7, uint32_t device = 0,
                          uint32_t graph_id = 0, uint64_t graph_node_id = 0);
// Packs records into a buffer laid out the way the fake's cuptiActivityGetNextRecord walks it.
std::vector<uint8_t> PackRecords(const std::vector<KernelActivity>& records);

// A fake CUDA context: its number, which nothing dereferences (0x10 unless a test needs
// several).
CUcontext FakeContext(uintptr_t number = 0x10);

// Callback emission, as CUPTI would call the subscriber.
void EmitLaunch(CUpti_CallbackId id, CUpti_ApiCallbackSite site, uint32_t correlation_id,
                const char* symbol, CUcontext context = FakeContext(),
                CUresult result = CUDA_SUCCESS);
void EmitGraphLaunch(CUpti_ApiCallbackSite site, uint32_t correlation_id, uint32_t exec_id);
void EmitCapture(bool begin, CUpti_ApiCallbackSite site);
// The runtime's cudaStreamBeginCapture / cudaStreamEndCapture callback on `stream`.
void EmitRuntimeCapture(bool begin, CUpti_ApiCallbackSite site, CUstream stream);
// Graph handles are fake pointers whose value is the id.
void EmitGraphResource(CUpti_CallbackId id, uint64_t node_id, uint32_t graph_id,
                       uint32_t exec_id = 0, uint64_t original_node_id = 0,
                       CUgraphNodeType type = CU_GRAPH_NODE_TYPE_KERNEL);
void EmitNvtxPush(const char* message);
// Resource callbacks of pcsampling mode.
void EmitModuleLoaded(const std::vector<char>& cubin, bool unloading = false);
void EmitContextDestroying(CUcontext context);
// The CRC the fake's cuptiGetCubinCrc gives `cubin`.
uint64_t FakeCubinCrc(const std::vector<char>& cubin);
// The H100/H200 stall reasons (names as CUPTI gives them), for the fake to offer.
void OfferHopperStallReasons();
void EmitNvtxPop();

}  // namespace proton::cupti::testing
