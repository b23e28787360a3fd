// The CUPTI backend (profiler.md §5): subscribes to the launch, graph, capture and NVTX
// callbacks, collects concurrent-kernel activity records into pooled buffers, decodes them and
// hands them to the core's BackendSink, and implements the flush and stop protocol (§5.6).
// Mode pcsampling (§5.13) adds a PcSampler around each kernel launch and serialised kernel
// records.
// One instance is subscribed per process at a time (CUPTI allows one subscriber).
// Threads: Start/Flush/Stop/QueryDevice on the API caller's thread; callbacks on application
// threads (thread-local state only, plus atomics and the graph tracker); buffer completion on
// CUPTI's thread or the flushing thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend/backend.h"
#include "cupti/buffer_pool.h"
#include "cupti/cupti_api.h"
#include "cupti/cupti_call_checker.h"
#include "cupti/graph_tracker.h"
#include "cupti/pc_sampling.h"
#include "util/status.h"
#include "util/thread_annotations.h"

namespace proton::cupti {

class CuptiBackend final : public Backend {
 public:
  // With null tables the libraries are loaded at the first Start; tests pass fake tables.
  explicit CuptiBackend(const DriverApi* driver = nullptr, const CuptiApi* cupti = nullptr);
  ~CuptiBackend() override;
  CuptiBackend(const CuptiBackend&) = delete;
  CuptiBackend& operator=(const CuptiBackend&) = delete;

  std::string_view Name() const override { return "cupti"; }
  Status Start(BackendSink* sink, std::string_view mode) override;
  void Flush(bool synchronize) override;
  // The records of finished kernels: a default flush, and a forced one after synchronising
  // when no launch happened meanwhile (never one that could catch a running kernel).
  void FlushCompleted() override;
  void Stop() override;
  std::optional<DeviceInfo> QueryDevice(uint32_t device_id) override;
  // cuptiGetTimestamp: the clock of the activity records (design.md says why). After Start.
  TimestampFn Timestamp() const override;

  // CUPTI entry points; the static trampolines in cupti_callbacks.cc forward here. Never throw.
  void OnCallback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data);
  // PROTON_DEBUG_CALLBACKS: one stderr line describing the callback (off the common path).
  void LogCallback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data);
  void OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records);
  void OnBufferCompleted(CUcontext context, uint32_t stream_id, uint8_t* buffer, size_t valid_size);

  // Observers for tests.
  bool started() const { return started_.load(std::memory_order_acquire); }
  uint64_t max_submitted() const { return max_submitted_.load(std::memory_order_acquire); }
  uint64_t max_completed() const { return max_completed_.load(std::memory_order_acquire); }
  int last_flush_polls() const { return last_flush_polls_; }
  const GraphTracker& graphs() const { return graphs_; }
  const BufferPool* buffers() const { return buffers_.get(); }
  const PcSampler* pc_sampler() const { return pc_sampler_.get(); }
  // The CUPTI calls that failed without stopping anything (counted, warned about once).
  const CuptiCallChecker& cupti_calls() const { return cupti_calls_; }

  // The messages of §5.2 for a refused cuptiSubscribe. API mode raises the first; CLI mode
  // prints the second and runs the process unprofiled.
  static std::string SubscribeErrorMessage(const CuptiApi* api, CUptiResult result);
  static std::string StepAsideWarning(const CuptiApi* api, CUptiResult result, long pid);

 private:
  // The steps of Start. PrepareStart and EnableActivity leave cleanup to Start; Subscribe
  // undoes its own failure; Unsubscribe undoes Subscribe and EnableActivity.
  Status PrepareStart(std::string_view mode, bool pc_sampling);
  Status Subscribe(BackendSink* sink);
  Status EnableActivity(std::string_view mode, bool pc_sampling);
  void Unsubscribe();
  Status LoadLibraries();
  Status StartPcSampling(std::string_view mode);
  Status EnableCallbacks(bool nvtx, bool pc_sampling);
  void DisableCallbacks();
  void DetachAtExit();
  // Counts a CUPTI result that nothing depends on; true when it succeeded.
  bool CheckCupti(CUptiResult result, const char* call) {
    return cupti_calls_.Check(cupti_, result, call);
  }
  // PROTON_VERBOSE: one line with the counts of the failed calls, if any failed.
  void ReportCuptiFailures() const;
  // Handlers get the sink loaded once by OnCallback: Stop may clear the sink while a callback of
  // another thread is in flight, and the sink (owned by the core) outlives the backend.
  void HandleDriverCall(BackendSink* sink, CUpti_CallbackId id, const CUpti_CallbackData* data);
  void HandleRuntimeCall(CUpti_CallbackId id, const CUpti_CallbackData* data);
  void HandleKernelLaunch(BackendSink* sink, const CUpti_CallbackData* data);
  void HandleGraphLaunch(BackendSink* sink, const CUpti_CallbackData* data);
  void HandleResource(BackendSink* sink, CUpti_CallbackId id, const CUpti_ResourceData* data);
  bool HandlePcSamplingResource(CUpti_CallbackId id, const CUpti_ResourceData* data);
  void PcSampledLaunchExit(BackendSink* sink, PcSampler* sampler, uint64_t correlation_id);
  void HandleNvtx(BackendSink* sink, CUpti_CallbackId id, const CUpti_NvtxData* data);
  void NoteContext(CUcontext context);
  void NoteSubmitted(uint64_t correlation_id);
  void SynchronizeContexts();
  void ReleaseOrigins(BackendSink* sink, const std::vector<uint64_t>& origins);
  int ComputeMajorOfDevice0() const;

  // Read by every launch callback, written only at Start, Stop and a context's first launch.
  // A launch reads the first cache line only (each line a launch touches is a miss once the
  // application evicted it), unless the process has more than 6 contexts: 14 stay lock-free,
  // so that one process driving the 8 GPUs of a node does too.
  static constexpr size_t kInlineContexts = 14;
  struct alignas(64) HotState {
    std::atomic<BackendSink*> sink{nullptr};
    // Non-null in pcsampling mode: kernel launches are sampled (§5.13).
    std::atomic<PcSampler*> pc_sampler{nullptr};
    // Contexts that had launches, synchronized at flush; filled in order, null-terminated.
    std::atomic<CUcontext> contexts[kInlineContexts] = {};
  };
  HotState hot_;
  // Written by every launch: a line of its own, so that other launching threads' reads of
  // hot_ do not bounce with it.
  alignas(64) std::atomic<uint64_t> max_submitted_{0};
  const DriverApi* driver_;
  const CuptiApi* cupti_;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  CUpti_ActivityKind activity_kind_ = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  bool nvtx_enabled_ = false;
  std::atomic<bool> started_{false};
  std::unique_ptr<BufferPool> buffers_;
  // Kept until the next Start: a callback of another thread may still be inside it after Stop.
  std::unique_ptr<PcSampler> pc_sampler_;
  GraphTracker graphs_;
  std::atomic<uint64_t> max_completed_{0};
  std::atomic<bool> warned_flush_{false};
  CuptiCallChecker cupti_calls_;
  int last_flush_polls_ = 0;
  Mutex contexts_mutex_;  // taken to add a context, and to read all of them
  std::vector<CUcontext> more_contexts_ PROTON_GUARDED_BY(contexts_mutex_);  // beyond hot_.contexts
};

// Makes the calling thread's CUDA calls invisible to the backend's launch callbacks (the
// recursion guard of §5.3). Used around the backend's own driver calls.
class ScopedCallbackGuard {
 public:
  ScopedCallbackGuard();
  ~ScopedCallbackGuard();
  ScopedCallbackGuard(const ScopedCallbackGuard&) = delete;
  ScopedCallbackGuard& operator=(const ScopedCallbackGuard&) = delete;
  static bool Active();
};

}  // namespace proton::cupti
