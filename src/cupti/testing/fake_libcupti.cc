// Test-only stand-in for libcupti (no GPU): every entry point the backend resolves, logging
// subscribe/unsubscribe/finalize on stderr so injection_cli_test.sh can see the backend's life.
//
// A fake GPU that runs kernels, so the real CUPTI backend, core and writers can be tested end
// to end on a CPU machine (profiler.md §5.15). The test hook
//   uint32_t fakecupti_launch(const char* name, uint64_t duration_ns, uint32_t stream)
// (ctypes-callable; tests/launcher/fake_gpu.py wraps it) stands for one cuLaunchKernel on the
// calling thread: the enabled driver-API callbacks CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel enter
// and exit (fresh correlation id, symbol name = `name`, a fake context), then one kernel
// activity record (the kernel record struct the decoder reads) on device 0 and `stream`, timed
// on a fake GPU clock that advances by duration_ns plus a 1 µs gap per launch; duration_ns 0
// gives an incomplete record (end 0). It returns the correlation id, 0 when CUPTI is gone.
// cuptiGetTimestamp reads the same clock. Records reach the client as CUPTI delivers them:
// through the buffer-completed callback when the client's buffer is full, and at
// cuptiActivityFlushAll; fakecupti_deliver() completes the current buffer at once, as CUPTI's
// own thread may at any time. A launch for which the client gives no buffer is a dropped
// record (cuptiActivityGetNumDroppedRecords).
//
// It also models the process exit of the real CUPTI + CUDA runtime, where the GPU machine's
// native target crashed after its profile was written:
// - CUPTI's own exit cleanup, registered with atexit when the activity API is first set up
//   (after libproton.so's load-time atexit, so it runs BEFORE a finalize registered then): it
//   flushes the outstanding activity buffers to the client and frees CUPTI's state. After it,
//   a flush is refused harmlessly, but cuptiActivityDisable/cuptiUnsubscribe/cuptiFinalize use
//   the freed state (SIGSEGV; a heap-use-after-free under ASan).
// - fakecupti_driver_teardown, called by the fake driver's own late exit handler (the CUDA
//   runtime destroying the primary context after every other handler): a still-subscribed
//   client gets a resource callback and a buffer request/completion, as CUPTI delivers them at
//   context destruction. A client that freed its backend while subscribed crashes there.
#include <cupti.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>

#include "cupti/testing/fake_activity_buffers.h"
#include "util/thread_annotations.h"

namespace {
using proton::fakecupti::ActivityBuffers;
using proton::fakecupti::KernelActivity;

constexpr uint64_t kClockStartNs = 1'000'000'000;  // the fake GPU clock at load
constexpr uint64_t kLaunchGapNs = 1000;            // idle time between two fake kernels
const auto kFakeContext = reinterpret_cast<CUcontext>(0x10);
constexpr uint32_t kFakeContextId = 1;

struct ActivityState {
  int enabled_kinds = 0;
  // The kernel kind enabled; read by launching threads.
  std::atomic<CUpti_ActivityKind> kernel_kind{CUPTI_ACTIVITY_KIND_INVALID};
  ActivityBuffers buffers;
};
ActivityState* g_state = new ActivityState();  // freed by CUPTI's exit cleanup
bool g_cleanup_registered = false;
// Atomic: launching threads read them while the backend subscribes or finalizes.
std::atomic<CUpti_CallbackFunc> g_callback{nullptr};
std::atomic<void*> g_userdata{nullptr};
std::atomic<bool> g_subscribed{false};

// What the subscriber enabled: CUPTI calls a subscriber only for those.
proton::Mutex g_enabled_mutex;
std::set<std::pair<int, CUpti_CallbackId>> g_enabled_callbacks PROTON_GUARDED_BY(g_enabled_mutex);
std::set<int> g_enabled_domains PROTON_GUARDED_BY(g_enabled_mutex);

std::atomic<uint32_t> g_next_correlation_id{1};
std::atomic<uint64_t> g_gpu_clock{kClockStartNs};

// Kernel names, kept for the life of the process: records point at them until decoded, and
// buffers may be decoded during exit (hence never destroyed).
const char* Intern(const char* name) {
  static proton::Mutex mutex;
  static auto* names = new std::unordered_set<std::string>();
  proton::MutexLock lock(mutex);
  return names->insert(name != nullptr ? name : "").first->c_str();
}

bool CallbackEnabled(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
  proton::MutexLock lock(g_enabled_mutex);
  return g_enabled_domains.count(domain) != 0 || g_enabled_callbacks.count({domain, id}) != 0;
}

void EmitKernelLaunch(CUpti_ApiCallbackSite site, uint32_t correlation_id, const char* symbol,
                      uint32_t stream) {
  constexpr CUpti_CallbackId kId = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
  CUpti_CallbackFunc callback = g_callback.load();
  if (!g_subscribed || callback == nullptr || !CallbackEnabled(CUPTI_CB_DOMAIN_DRIVER_API, kId)) {
    return;
  }
  cuLaunchKernel_params params{};
  params.gridDimX = params.gridDimY = params.gridDimZ = 1;
  params.blockDimX = params.blockDimY = params.blockDimZ = 1;
  // A fake stream is its number: nothing dereferences it.
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  params.hStream = reinterpret_cast<CUstream>(static_cast<uintptr_t>(stream));
  CUresult result = CUDA_SUCCESS;
  uint64_t correlation_data = 0;
  CUpti_CallbackData data{};
  data.callbackSite = site;
  data.functionName = "cuLaunchKernel";
  data.functionParams = &params;
  data.functionReturnValue = site == CUPTI_API_EXIT ? &result : nullptr;
  data.symbolName = symbol;
  data.context = kFakeContext;
  data.contextUid = kFakeContextId;
  data.correlationData = &correlation_data;
  data.correlationId = correlation_id;
  callback(g_userdata.load(), CUPTI_CB_DOMAIN_DRIVER_API, kId, &data);
}

KernelActivity KernelRecord(CUpti_ActivityKind kind, uint32_t correlation_id, const char* symbol,
                            uint64_t duration_ns, uint32_t stream) {
  KernelActivity record;
  std::memset(&record, 0, sizeof(record));
  uint64_t start = g_gpu_clock.fetch_add(duration_ns + kLaunchGapNs);
  record.kind = kind;
  record.start = start;
  record.end = duration_ns == 0 ? 0 : start + duration_ns;  // 0: still running
  record.completed = record.end;
  record.deviceId = 0;
  record.contextId = kFakeContextId;
  record.streamId = stream;
  record.correlationId = correlation_id;
  record.gridX = record.gridY = record.gridZ = 1;
  record.blockX = record.blockY = record.blockZ = 1;
  record.name = symbol;
  return record;
}

void CuptiExitCleanup() {
  fprintf(stderr, "[fakecupti] exit cleanup\n");
  g_state->buffers.CompleteHeld();
  delete g_state;
  g_state = nullptr;
}
}  // namespace

extern "C" {
CUptiResult cuptiGetVersion(uint32_t* v) {
  *v = 130001;
  return CUPTI_SUCCESS;
}
CUptiResult cuptiGetResultString(CUptiResult, const char** s) {
  *s = "CUPTI_X";
  return CUPTI_SUCCESS;
}
CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* h, CUpti_CallbackFunc cb, void* userdata) {
  *h = (CUpti_SubscriberHandle)1;
  g_callback = cb;
  g_userdata = userdata;
  g_subscribed = true;
  fprintf(stderr, "[fakecupti] subscribe\n");
  return CUPTI_SUCCESS;
}
CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle) {
  g_state->enabled_kinds += 0;  // uses CUPTI's state: freed after its exit cleanup
  g_subscribed = false;
  {
    proton::MutexLock lock(g_enabled_mutex);
    g_enabled_callbacks.clear();
    g_enabled_domains.clear();
  }
  fprintf(stderr, "[fakecupti] unsubscribe\n");
  return CUPTI_SUCCESS;
}
CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain d,
                                CUpti_CallbackId id) {
  proton::MutexLock lock(g_enabled_mutex);
  if (enable != 0) {
    g_enabled_callbacks.insert({d, id});
  } else {
    g_enabled_callbacks.erase({d, id});
  }
  return CUPTI_SUCCESS;
}
CUptiResult cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain d) {
  proton::MutexLock lock(g_enabled_mutex);
  if (enable != 0) {
    g_enabled_domains.insert(d);
    return CUPTI_SUCCESS;
  }
  g_enabled_domains.erase(d);
  std::erase_if(g_enabled_callbacks, [d](const auto& entry) { return entry.first == d; });
  return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
  ++g_state->enabled_kinds;
  if (kind == CUPTI_ACTIVITY_KIND_KERNEL || kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
    g_state->kernel_kind = kind;
  }
  g_state->buffers.Prepare();
  return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind) {
  --g_state->enabled_kinds;
  if (kind == g_state->kernel_kind) g_state->kernel_kind = CUPTI_ACTIVITY_KIND_INVALID;
  return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                           CUpti_BuffersCallbackCompleteFunc complete) {
  g_state->buffers.Register(request, complete);
  if (!g_cleanup_registered) g_cleanup_registered = std::atexit(CuptiExitCleanup) == 0;
  return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityFlushAll(uint32_t) {
  if (g_state == nullptr) return CUPTI_ERROR_NOT_INITIALIZED;
  g_state->buffers.Flush();
  return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid, CUpti_Activity** record) {
  return ActivityBuffers::NextRecord(buffer, valid, record);
}
CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* d) {
  *d = g_state != nullptr ? g_state->buffers.TakeDropped() : 0;
  return CUPTI_SUCCESS;
}
CUptiResult cuptiGetTimestamp(uint64_t* timestamp) {
  *timestamp = g_gpu_clock.load();
  return CUPTI_SUCCESS;
}
CUptiResult cuptiGetGraphId(CUgraph, uint32_t* i) {
  *i = 0;
  return CUPTI_SUCCESS;
}
CUptiResult cuptiGetGraphExecId(CUgraphExec, uint32_t* i) {
  *i = 0;
  return CUPTI_SUCCESS;
}
CUptiResult cuptiGetGraphNodeId(CUgraphNode, uint64_t* i) {
  *i = 0;
  return CUPTI_SUCCESS;
}
CUptiResult cuptiFinalize() {
  g_state->enabled_kinds = 0;  // uses CUPTI's state: freed after its exit cleanup
  g_state->kernel_kind = CUPTI_ACTIVITY_KIND_INVALID;
  g_state->buffers.Register(nullptr, nullptr);
  g_callback = nullptr;
  fprintf(stderr, "[fakecupti] finalize\n");
  return CUPTI_SUCCESS;
}

// Test hook (see the top comment): one kernel launch on the fake GPU.
__attribute__((visibility("default"))) uint32_t fakecupti_launch(const char* name,
                                                                 uint64_t duration_ns,
                                                                 uint32_t stream) {
  if (g_state == nullptr) return 0;
  const char* symbol = Intern(name);
  uint32_t correlation_id = g_next_correlation_id.fetch_add(1);
  EmitKernelLaunch(CUPTI_API_ENTER, correlation_id, symbol, stream);
  EmitKernelLaunch(CUPTI_API_EXIT, correlation_id, symbol, stream);
  // The record exists once the kernel ran, after the launch returned.
  CUpti_ActivityKind kind =
      g_state != nullptr ? g_state->kernel_kind.load() : CUPTI_ACTIVITY_KIND_INVALID;
  if (kind != CUPTI_ACTIVITY_KIND_INVALID) {
    g_state->buffers.Append(KernelRecord(kind, correlation_id, symbol, duration_ns, stream));
  }
  return correlation_id;
}

// Test hook (see the top comment): CUPTI's thread completing the current buffer now.
__attribute__((visibility("default"))) void fakecupti_deliver() {
  if (g_state != nullptr) g_state->buffers.Flush();
}

// Test hook (see the top comment): the primary context is destroyed at the runtime's exit.
__attribute__((visibility("default"))) void fakecupti_driver_teardown() {
  CUpti_CallbackFunc callback = g_callback.load();
  if (!g_subscribed || callback == nullptr) return;
  fprintf(stderr, "[fakecupti] context destroyed: callbacks to the subscriber\n");
  CUpti_ResourceData resource{};
  callback(g_userdata.load(), CUPTI_CB_DOMAIN_RESOURCE,
           CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, &resource);
  if (g_state == nullptr) return;
  g_state->buffers.Teardown();
}
}
