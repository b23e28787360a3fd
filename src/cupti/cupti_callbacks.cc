// The callback hot path (profiler.md §5.3, §5.9, §5.10): kernel and graph launches, stream
// capture, graph resource events and NVTX ranges. Runs on application threads; uses only
// thread-local state, atomics and the graph tracker, and never lets an exception escape.
#include <cstdio>
#include <exception>
#include <string>

#include "core/fork_guard.h"
#include "cupti/callback_ids.h"
#include "cupti/callback_trampolines.h"
#include "cupti/cupti_backend.h"

namespace proton::cupti {
namespace {

// Mirror of nvtxRangePushA_params (generated_nvtx_meta.h, which would pull in NVTX headers).
struct NvtxRangePushAParams {
  const char* message;
};

std::atomic<CuptiBackend*> g_buffer_owner{nullptr};

// What every callback reads first, in one cache line of its own: between two launches the
// application evicts our state, and each line a launch touches costs a cache miss (the shadow
// overhead of §7.4 is mostly those, bench/core/RESULTS.md). The counters make the
// thread-local state below needed only while some thread is inside a guard or a capture, so
// the common launch reads no thread-local at all (in a shared library every thread-local
// access is a __tls_get_addr call through the DTV: more lines).
// `flags` is the word every entry checks first: one test of it keeps both rare cases (detached,
// debug printing) off the common path without another load.
constexpr uint8_t kDetached = 1;  // set once at process exit, or in a forked child
constexpr uint8_t kDebug = 2;     // PROTON_DEBUG_CALLBACKS
struct alignas(64) CallbackGate {
  std::atomic<uint8_t> flags{0};
  std::atomic<int> guarded_threads{0};    // threads with t_guard_depth > 0
  std::atomic<int> capturing_threads{0};  // threads with t_capture_depth > 0
};
CallbackGate g_gate;

bool Detached() { return (g_gate.flags.load(std::memory_order_acquire) & kDetached) != 0; }

// Per-thread state. Plain types only, so access needs no TLS initialisation guard.
thread_local int t_guard_depth = 0;  // > 0: our own CUDA calls (recursion guard)
// The streams this thread is capturing. A set, not a counter: the runtime's and the driver's
// callbacks both report one capture (either may be missing, §5.3), and a set counts it once.
constexpr int kCaptureSlots = 8;
thread_local int t_capture_depth = 0;  // > 0: the thread is capturing a stream
thread_local CUstream t_capture_streams[kCaptureSlots] = {};
thread_local int t_capture_overflow = 0;  // captures beyond kCaptureSlots, counted only
thread_local bool t_in_captured_launch = false;
thread_local const char* t_captured_launch_name = nullptr;
thread_local bool t_in_sampled_launch = false;  // between BeforeLaunch and AfterLaunch

bool Guarded() {
  return g_gate.guarded_threads.load(std::memory_order_acquire) > 0 && t_guard_depth > 0;
}

bool Capturing() {
  return g_gate.capturing_threads.load(std::memory_order_acquire) > 0 && t_capture_depth > 0;
}

bool ReturnedSuccess(const CUpti_CallbackData* data) {
  return data->functionReturnValue == nullptr ||
         *static_cast<const CUresult*>(data->functionReturnValue) == CUDA_SUCCESS;
}

// Every capture call's parameter struct, runtime or driver, starts with the stream.
CUstream CaptureStream(const CUpti_CallbackData* data) {
  return data->functionParams != nullptr ? *static_cast<const CUstream*>(data->functionParams)
                                         : nullptr;
}

void SetCaptureDepth(int depth) {
  if (t_capture_depth == 0 && depth > 0) {
    g_gate.capturing_threads.fetch_add(1, std::memory_order_acq_rel);
  } else if (t_capture_depth > 0 && depth == 0) {
    g_gate.capturing_threads.fetch_sub(1, std::memory_order_acq_rel);
  }
  t_capture_depth = depth;
}

// Capture begin or end as seen at the exit of a runtime or driver capture call.
void NoteCapture(bool begin, const CUpti_CallbackData* data) {
  if (data->callbackSite != CUPTI_API_EXIT) return;
  CUstream stream = CaptureStream(data);
  int used = t_capture_depth - t_capture_overflow;  // slots in use
  int found = -1;
  for (int i = 0; i < used; ++i) {
    if (t_capture_streams[i] == stream) found = i;
  }
  if (begin) {
    if (found >= 0 || !ReturnedSuccess(data)) return;  // the other domain's report of it
    if (used < kCaptureSlots) {
      t_capture_streams[used] = stream;
    } else {
      ++t_capture_overflow;
    }
    SetCaptureDepth(t_capture_depth + 1);
    return;
  }
  // An end finishes the capture whatever it returns (an invalidated capture ends too).
  if (found >= 0) {
    t_capture_streams[found] = t_capture_streams[used - 1];
    SetCaptureDepth(t_capture_depth - 1);
  } else if (t_capture_overflow > 0) {
    --t_capture_overflow;
    SetCaptureDepth(t_capture_depth - 1);
  }
}

const char* DomainName(CUpti_CallbackDomain domain) {
  switch (domain) {
    case CUPTI_CB_DOMAIN_DRIVER_API: return "driver";
    case CUPTI_CB_DOMAIN_RUNTIME_API: return "runtime";
    case CUPTI_CB_DOMAIN_RESOURCE: return "resource";
    case CUPTI_CB_DOMAIN_NVTX: return "nvtx";
    default: return "other";
  }
}

const char* ResourceName(CUpti_CallbackId id) {
  switch (id) {
    case CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED: return "GRAPHNODE_CREATED";
    case CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED: return "GRAPHNODE_CLONED";
    case CUPTI_CBID_RESOURCE_GRAPHNODE_DESTROY_STARTING: return "GRAPHNODE_DESTROY_STARTING";
    case CUPTI_CBID_RESOURCE_GRAPH_DESTROY_STARTING: return "GRAPH_DESTROY_STARTING";
    case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED: return "GRAPHEXEC_CREATED";
    case CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING: return "GRAPHEXEC_DESTROY_STARTING";
    default: return "resource";
  }
}

}  // namespace

ScopedCallbackGuard::ScopedCallbackGuard() {
  if (t_guard_depth++ == 0) g_gate.guarded_threads.fetch_add(1, std::memory_order_acq_rel);
}
ScopedCallbackGuard::~ScopedCallbackGuard() {
  if (--t_guard_depth == 0) g_gate.guarded_threads.fetch_sub(1, std::memory_order_acq_rel);
}
bool ScopedCallbackGuard::Active() { return t_guard_depth > 0; }

// A forked child of a process whose backend was subscribed inherits the subscription, but not
// the driver's or CUPTI's threads, nor the backend's locks as they were: callbacks CUPTI still
// makes there (the runtime's teardown at exit) must not reach the parent's backend (§2.9).
void DetachInForkedChild() {
  if (g_buffer_owner.load(std::memory_order_acquire) != nullptr) DetachCallbacks();
}

void SetBufferOwner(CuptiBackend* backend) {
  static const bool kForkActionAdded = (AddForkChildAction(DetachInForkedChild), true);
  (void)kForkActionAdded;
  g_buffer_owner.store(backend, std::memory_order_release);
}

void DetachCallbacks() { g_gate.flags.fetch_or(kDetached, std::memory_order_acq_rel); }

void SetCallbackDebug(bool on) {
  if (on) {
    g_gate.flags.fetch_or(kDebug, std::memory_order_acq_rel);
  } else {
    g_gate.flags.fetch_and(static_cast<uint8_t>(~kDebug), std::memory_order_acq_rel);
  }
}

bool CallbackDebug() { return (g_gate.flags.load(std::memory_order_relaxed) & kDebug) != 0; }

void CUPTIAPI CallbackTrampoline(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                 const void* data) {
  uint8_t flags = g_gate.flags.load(std::memory_order_acquire);
  if (userdata == nullptr || data == nullptr) return;
  if (flags != 0) {  // rare: detached, or debug printing
    if ((flags & kDetached) != 0) return;
    static_cast<CuptiBackend*>(userdata)->LogCallback(domain, id, data);
  }
  static_cast<CuptiBackend*>(userdata)->OnCallback(domain, id, data);
}

void CUPTIAPI BufferRequestedTrampoline(uint8_t** buffer, size_t* size, size_t* max_records) {
  CuptiBackend* owner = g_buffer_owner.load(std::memory_order_acquire);
  if (owner == nullptr || Detached()) {
    *buffer = nullptr;
    *size = 0;
    *max_records = 0;
    return;
  }
  owner->OnBufferRequested(buffer, size, max_records);
}

void CUPTIAPI BufferCompletedTrampoline(CUcontext context, uint32_t stream_id, uint8_t* buffer,
                                        size_t /*size*/, size_t valid_size) {
  if (Detached()) return;  // the buffer stays allocated
  CuptiBackend* owner = g_buffer_owner.load(std::memory_order_acquire);
  if (owner != nullptr) owner->OnBufferCompleted(context, stream_id, buffer, valid_size);
}

void CuptiBackend::OnCallback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (Guarded()) return;
  BackendSink* sink = hot_.sink.load(std::memory_order_acquire);
  if (sink == nullptr) return;
  try {
    switch (domain) {
      case CUPTI_CB_DOMAIN_DRIVER_API:
        HandleDriverCall(sink, id, static_cast<const CUpti_CallbackData*>(data));
        break;
      case CUPTI_CB_DOMAIN_RUNTIME_API:
        HandleRuntimeCall(id, static_cast<const CUpti_CallbackData*>(data));
        break;
      case CUPTI_CB_DOMAIN_RESOURCE:
        HandleResource(sink, id, static_cast<const CUpti_ResourceData*>(data));
        break;
      case CUPTI_CB_DOMAIN_NVTX:
        HandleNvtx(sink, id, static_cast<const CUpti_NvtxData*>(data));
        break;
      default: break;
    }
  } catch (...) {
    // Nothing may leave a CUPTI callback (§5.3); the event is lost.
  }
}

void CuptiBackend::HandleDriverCall(BackendSink* sink, CUpti_CallbackId id,
                                    const CUpti_CallbackData* data) {
  switch (ClassifyDriverCall(id)) {
    case DriverCallKind::kKernelLaunch: HandleKernelLaunch(sink, data); break;
    case DriverCallKind::kGraphLaunch: HandleGraphLaunch(sink, data); break;
    case DriverCallKind::kCaptureBegin: NoteCapture(true, data); break;
    case DriverCallKind::kCaptureEnd: NoteCapture(false, data); break;
    case DriverCallKind::kOther: break;
  }
}

void CuptiBackend::HandleRuntimeCall(CUpti_CallbackId id, const CUpti_CallbackData* data) {
  DriverCallKind kind = ClassifyRuntimeCall(id);
  if (kind == DriverCallKind::kCaptureBegin) NoteCapture(true, data);
  if (kind == DriverCallKind::kCaptureEnd) NoteCapture(false, data);
}

void CuptiBackend::LogCallback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  try {
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
      const auto* resource = static_cast<const CUpti_ResourceData*>(data);
      const auto* graph = static_cast<const CUpti_GraphData*>(resource->resourceDescriptor);
      uint64_t node_id = 0, original_id = 0;
      uint32_t graph_id = 0, exec_id = 0;
      int type = -1;
      if (graph != nullptr && cupti_ != nullptr) {
        if (graph->node != nullptr)
          CheckCupti(cupti_->get_graph_node_id(graph->node, &node_id), "cuptiGetGraphNodeId");
        if (graph->originalNode != nullptr) {
          CheckCupti(cupti_->get_graph_node_id(graph->originalNode, &original_id),
                     "cuptiGetGraphNodeId");
        }
        if (graph->graph != nullptr)
          CheckCupti(cupti_->get_graph_id(graph->graph, &graph_id), "cuptiGetGraphId");
        if (graph->graphExec != nullptr)
          CheckCupti(cupti_->get_graph_exec_id(graph->graphExec, &exec_id), "cuptiGetGraphExecId");
        type = static_cast<int>(graph->nodeType);
      }
      std::fprintf(stderr,
                   "[proton] cb resource %u %s node=%llu graph=%u exec=%u original=%llu type=%d "
                   "capturing=%d in_launch=%d\n",
                   static_cast<unsigned>(id), ResourceName(id),
                   static_cast<unsigned long long>(node_id), graph_id, exec_id,
                   static_cast<unsigned long long>(original_id), type, t_capture_depth,
                   t_in_captured_launch ? 1 : 0);
      return;
    }
    const char* name = "?";
    const char* site = "";
    uint64_t correlation_id = 0;
    const char* symbol = "";
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
      const auto* nvtx = static_cast<const CUpti_NvtxData*>(data);
      if (nvtx->functionName != nullptr) name = nvtx->functionName;
    } else {
      const auto* api = static_cast<const CUpti_CallbackData*>(data);
      if (api->functionName != nullptr) name = api->functionName;
      site = api->callbackSite == CUPTI_API_ENTER ? " enter" : " exit";
      correlation_id = api->correlationId;
      if (api->symbolName != nullptr) symbol = api->symbolName;
    }
    std::fprintf(stderr, "[proton] cb %s %u %s%s corr=%llu capturing=%d%s%s\n", DomainName(domain),
                 static_cast<unsigned>(id), name, site,
                 static_cast<unsigned long long>(correlation_id), t_capture_depth,
                 *symbol != '\0' ? " symbol=" : "", symbol);
  } catch (...) {
    // Nothing may leave a callback.
  }
}

void CuptiBackend::HandleKernelLaunch(BackendSink* sink, const CUpti_CallbackData* data) {
  if (Capturing()) {
    // Captured, not executed: no activity record will come, so no correlation state (§3.8).
    // Remember the kernel so that GRAPHNODE_CREATED inside this call can name it.
    if (data->callbackSite == CUPTI_API_ENTER) {
      t_in_captured_launch = true;
      t_captured_launch_name = data->symbolName;
    } else {
      t_in_captured_launch = false;
      t_captured_launch_name = nullptr;
    }
    return;
  }
  PcSampler* sampler = hot_.pc_sampler.load(std::memory_order_acquire);
  if (data->callbackSite == CUPTI_API_ENTER) {
    NoteContext(data->context);
    const char* name = data->symbolName;
    // A sampled launch expects its PC samples as one more record (BackendSink::OnPcSamples).
    sink->OnLaunchEnter(data->correlationId, name != nullptr ? name : "", sampler ? 2 : 1);
    if (sampler != nullptr) [[unlikely]] {
      t_in_sampled_launch = true;
      sampler->BeforeLaunch(data->context);
    }
  } else {
    if (sampler != nullptr && t_in_sampled_launch) [[unlikely]] {
      PcSampledLaunchExit(sink, sampler, data->correlationId);
    }
    sink->OnLaunchExit(data->correlationId);
    if (ReturnedSuccess(data)) NoteSubmitted(data->correlationId);
  }
}

void CuptiBackend::PcSampledLaunchExit(BackendSink* sink, PcSampler* sampler,
                                       uint64_t correlation_id) {
  t_in_sampled_launch = false;
  LaunchSamples samples;
  sampler->AfterLaunch(&samples);
  sink->OnPcSamples(correlation_id, samples.samples);
}

bool CuptiBackend::HandlePcSamplingResource(CUpti_CallbackId id, const CUpti_ResourceData* data) {
  PcSampler* sampler = hot_.pc_sampler.load(std::memory_order_acquire);
  if (id == CUPTI_CBID_RESOURCE_MODULE_LOADED || id == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
    const auto* module = static_cast<const CUpti_ModuleResourceData*>(data->resourceDescriptor);
    if (sampler != nullptr && module != nullptr) {
      if (id == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
        sampler->ModuleLoaded(module->pCubin, module->cubinSize);
      } else {
        sampler->ModuleUnloading(module->pCubin, module->cubinSize);
      }
    }
    return true;
  }
  if (id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
    if (sampler != nullptr && data->context != nullptr) sampler->ContextDestroying(data->context);
    return true;
  }
  return false;
}

void CuptiBackend::HandleGraphLaunch(BackendSink* sink, const CUpti_CallbackData* data) {
  if (Capturing()) return;  // a child graph launched into a capture
  if (data->callbackSite == CUPTI_API_EXIT) {
    sink->OnLaunchExit(data->correlationId);
    if (ReturnedSuccess(data)) NoteSubmitted(data->correlationId);
    return;
  }
  NoteContext(data->context);
  const auto* params = static_cast<const cuGraphLaunch_params*>(data->functionParams);
  uint32_t exec_id = 0;
  if (params != nullptr && params->hGraph != nullptr) {
    CheckCupti(cupti_->get_graph_exec_id(params->hGraph, &exec_id), "cuptiGetGraphExecId");
  }
  // An unknown exec was instantiated before we subscribed: its records carry no capture key
  // and the core falls back to the launch context (and prints the one warning of §3.8).
  GraphTracker::ExecInfo exec = graphs_.LookupExec(exec_id);
  // A known graph without kernel nodes produces no kernel record: nothing to correlate.
  if (exec.known && exec.kernel_nodes == 0) return;
  sink->OnLaunchEnter(data->correlationId, "", exec.known ? exec.kernel_nodes : 0);
}

void CuptiBackend::HandleResource(BackendSink* sink, CUpti_CallbackId id,
                                  const CUpti_ResourceData* data) {
  if (HandlePcSamplingResource(id, data)) return;
  const auto* graph = static_cast<const CUpti_GraphData*>(data->resourceDescriptor);
  if (graph == nullptr) return;
  uint64_t node_id = 0;
  uint32_t graph_id = 0;
  uint32_t exec_id = 0;
  if (graph->node != nullptr)
    CheckCupti(cupti_->get_graph_node_id(graph->node, &node_id), "cuptiGetGraphNodeId");
  if (graph->graph != nullptr)
    CheckCupti(cupti_->get_graph_id(graph->graph, &graph_id), "cuptiGetGraphId");
  if (graph->graphExec != nullptr)
    CheckCupti(cupti_->get_graph_exec_id(graph->graphExec, &exec_id), "cuptiGetGraphExecId");
  bool is_kernel = graph->nodeType == CU_GRAPH_NODE_TYPE_KERNEL;
  switch (id) {
    case CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED: {
      bool captured = is_kernel && t_in_captured_launch;
      if (captured) {
        const char* name = t_captured_launch_name;
        if (CallbackDebug()) {
          std::fprintf(stderr, "[proton] captured node=%llu name=%s\n",
                       static_cast<unsigned long long>(node_id), name != nullptr ? name : "");
        }
        sink->OnGraphNodeCaptured(node_id, name != nullptr ? name : "");
      }
      graphs_.NodeCreated(node_id, graph_id, is_kernel, captured);
      break;
    }
    case CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED: {
      uint64_t original_id = 0;
      if (graph->originalNode != nullptr) {
        CheckCupti(cupti_->get_graph_node_id(graph->originalNode, &original_id),
                   "cuptiGetGraphNodeId");
      }
      graphs_.NodeCloned(node_id, original_id, graph_id, exec_id, is_kernel);
      break;
    }
    // Destroyed graphs' nodes stay mapped until the records of launches so far arrived
    // (GraphTracker::ReleaseRetired after a flush or many buffers).
    case CUPTI_CBID_RESOURCE_GRAPHNODE_DESTROY_STARTING:
      ReleaseOrigins(sink, graphs_.NodeDestroyed(node_id, max_submitted()));
      break;
    case CUPTI_CBID_RESOURCE_GRAPH_DESTROY_STARTING:
      ReleaseOrigins(sink, graphs_.GraphDestroyed(graph_id, max_submitted()));
      break;
    case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED: graphs_.ExecCreated(exec_id, graph_id); break;
    case CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING:
      ReleaseOrigins(sink, graphs_.ExecDestroyed(exec_id, max_submitted()));
      break;
    default: break;
  }
}

void CuptiBackend::HandleNvtx(BackendSink* sink, CUpti_CallbackId id, const CUpti_NvtxData* data) {
  if (id == CUPTI_CBID_NVTX_nvtxRangePushA) {
    const auto* params = static_cast<const NvtxRangePushAParams*>(data->functionParams);
    const char* message = params != nullptr ? params->message : nullptr;
    sink->OnNvtxPush(message != nullptr ? message : "");
  } else if (id == CUPTI_CBID_NVTX_nvtxRangePop) {
    sink->OnNvtxPop();
  }
}

void CuptiBackend::NoteContext(CUcontext context) {
  if (context == nullptr) return;
  // Lock-free while the context is among the first kInlineContexts (one GPU per context).
  for (const auto& slot : hot_.contexts) {
    CUcontext known = slot.load(std::memory_order_acquire);
    if (known == context) return;
    if (known == nullptr) break;
  }
  MutexLock lock(contexts_mutex_);
  for (auto& slot : hot_.contexts) {
    CUcontext known = slot.load(std::memory_order_relaxed);
    if (known == context) return;
    if (known == nullptr) {
      slot.store(context, std::memory_order_release);
      return;
    }
  }
  for (CUcontext known : more_contexts_) {
    if (known == context) return;
  }
  more_contexts_.push_back(context);
}

void CuptiBackend::NoteSubmitted(uint64_t correlation_id) {
  uint64_t seen = max_submitted_.load(std::memory_order_relaxed);
  while (correlation_id > seen &&
         !max_submitted_.compare_exchange_weak(seen, correlation_id, std::memory_order_acq_rel)) {
  }
}

}  // namespace proton::cupti
