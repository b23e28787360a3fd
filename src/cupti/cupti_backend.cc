// CuptiBackend: library loading, subscription, activity buffers, flush and stop (§5.1–§5.8).
// The callback hot path is in cupti_callbacks.cc.
#include "cupti/cupti_backend.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <thread>

#include "cupti/callback_ids.h"
#include "cupti/callback_trampolines.h"
#include "cupti/cupti_env.h"
#include "cupti/injection_state.h"
#include "cupti/library_loader.h"
#include "cupti/pc_sampling_decoder.h"
#include "cupti/record_decoder.h"

namespace proton::cupti {
namespace {

// cuptiGetTimestamp of the started backend's table, for the plain-function trace clock.
std::atomic<decltype(&::cuptiGetTimestamp)> g_get_timestamp{nullptr};

uint64_t CuptiTimestamp() {
  uint64_t ns = 0;
  auto get = g_get_timestamp.load(std::memory_order_acquire);
  if (get == nullptr || get(&ns) != CUPTI_SUCCESS) return 0;
  return ns;
}

// Kept reachable (not freed, and not reported by LeakSanitizer) after a detach at exit.
std::atomic<BufferPool*> g_pool_kept_at_exit{nullptr};
std::atomic<PcSampler*> g_sampler_kept_at_exit{nullptr};

constexpr int kFlushPolls = 100;  // §5.6: up to 100 × 10 µs
constexpr std::chrono::microseconds kFlushPollSleep{10};

std::string ModeName(std::string_view mode) { return std::string(mode.substr(0, mode.find(':'))); }

// In CLI mode the core prints nothing when the backend refuses to start (§5.2): every
// failure says here, once, that this process runs unprofiled.
Status StepAside(Status failed) {
  if (CliMode()) {
    std::fprintf(stderr, "[proton] warning: %s; process %ld runs unprofiled\n",
                 failed.message().c_str(), static_cast<long>(getpid()));
  }
  return failed;
}

}  // namespace

CuptiBackend::CuptiBackend(const DriverApi* driver, const CuptiApi* cupti)
    : driver_(driver), cupti_(cupti) {}

CuptiBackend::~CuptiBackend() {
  if (started()) Stop();
}

std::string CuptiBackend::SubscribeErrorMessage(const CuptiApi* api, CUptiResult result) {
  std::string name = CuptiResultName(api, result);
  if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    return "CUPTI is already in use by another profiler in this process (" + name +
           "): stop torch.profiler/Kineto, Nsight Systems, Nsight Compute or the other CUPTI "
           "tool first, or set PROTON_DISABLE=1 to run without proton";
  }
  return "CUPTI refused the subscription of this process (" + name +
         "), so kernels cannot be profiled; set PROTON_DISABLE=1 to run without proton";
}

std::string CuptiBackend::StepAsideWarning(const CuptiApi* api, CUptiResult result, long pid) {
  std::string name = CuptiResultName(api, result);
  if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    return "[proton] warning: CUPTI is already in use by another profiler in process " +
           std::to_string(pid) + " (" + name + "); this process runs unprofiled";
  }
  return "[proton] warning: CUPTI refused the subscription of process " + std::to_string(pid) +
         " (" + name + "); this process runs unprofiled";
}

int CuptiBackend::ComputeMajorOfDevice0() const {
  if (driver_ == nullptr || driver_->device_get == nullptr) return 0;
  if (InInjectionInit()) return 0;  // no device query inside cuInit
  ScopedCallbackGuard guard;
  CUdevice device = 0;
  int major = 0;
  // Fails harmlessly (CUDA_ERROR_NOT_INITIALIZED) inside InitializeInjection, before cuInit
  // returned; the GPU-generation check is then skipped.
  if (driver_->device_get(&device, 0) != CUDA_SUCCESS) return 0;
  if (driver_->device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) !=
      CUDA_SUCCESS) {
    return 0;
  }
  return major;
}

Status CuptiBackend::LoadLibraries() {
  if (driver_ == nullptr) {
    PROTON_ASSIGN_OR_RETURN(driver_, LoadDriver());
  }
  if (cupti_ == nullptr) {
    PROTON_ASSIGN_OR_RETURN(cupti_, LoadCupti(driver_, ComputeMajorOfDevice0()));
  }
  return Status();
}

Status CuptiBackend::EnableCallbacks(bool nvtx, bool pc_sampling) {
  auto enable = [&](CUpti_CallbackDomain domain, std::span<const CUpti_CallbackId> ids) -> Status {
    for (CUpti_CallbackId id : ids) {
      CUptiResult result = cupti_->enable_callback(1, subscriber_, domain, id);
      if (result != CUPTI_SUCCESS) {
        return Status::Error(CuptiCallError(cupti_, "cuptiEnableCallback", result),
                             ErrorKind::kRuntime);
      }
    }
    return Status();
  };
  PROTON_RETURN_IF_ERROR(enable(CUPTI_CB_DOMAIN_DRIVER_API, KernelLaunchIds()));
  PROTON_RETURN_IF_ERROR(enable(CUPTI_CB_DOMAIN_DRIVER_API, GraphLaunchIds()));
  PROTON_RETURN_IF_ERROR(enable(CUPTI_CB_DOMAIN_DRIVER_API, CaptureBeginIds()));
  PROTON_RETURN_IF_ERROR(enable(CUPTI_CB_DOMAIN_DRIVER_API, CaptureEndIds()));
  PROTON_RETURN_IF_ERROR(enable(CUPTI_CB_DOMAIN_RUNTIME_API, RuntimeCaptureBeginIds()));
  PROTON_RETURN_IF_ERROR(enable(CUPTI_CB_DOMAIN_RUNTIME_API, RuntimeCaptureEndIds()));
  PROTON_RETURN_IF_ERROR(enable(CUPTI_CB_DOMAIN_RESOURCE, GraphResourceIds()));
  if (pc_sampling) {
    PROTON_RETURN_IF_ERROR(enable(CUPTI_CB_DOMAIN_RESOURCE, PcSamplingResourceIds()));
  }
  if (nvtx) PROTON_RETURN_IF_ERROR(enable(CUPTI_CB_DOMAIN_NVTX, NvtxIds()));
  return Status();
}

void CuptiBackend::DisableCallbacks() {
  for (CUpti_CallbackDomain domain : {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_CB_DOMAIN_RUNTIME_API,
                                      CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CB_DOMAIN_NVTX}) {
    CheckCupti(cupti_->enable_domain(0, subscriber_, domain), "cuptiEnableDomain");
  }
}

Status CuptiBackend::StartPcSampling(std::string_view mode) {
  PROTON_RETURN_IF_ERROR(PcSampler::CheckAvailable(cupti_));
  int exponent = SamplingExponentOfMode(mode);
  pc_sampler_ = std::make_unique<PcSampler>(driver_, cupti_, exponent);
  if (VerboseEnabled()) {
    uint32_t version = 0;
    CheckCupti(cupti_->get_version(&version), "cuptiGetVersion");
    std::fprintf(stderr,
                 "[proton] pcsampling: CUPTI API version %u (headers %u), serialised kernel "
                 "records, sampling period 2^%d cycles; each context is enabled at its first "
                 "launch\n",
                 version, static_cast<unsigned>(CUPTI_API_VERSION), exponent);
  }
  return Status();
}

Status CuptiBackend::PrepareStart(std::string_view mode, bool pc_sampling) {
  PROTON_RETURN_IF_ERROR(LoadLibraries());
  if (pc_sampling) {
    PROTON_RETURN_IF_ERROR(StartPcSampling(mode));
  } else {
    pc_sampler_.reset();
  }
  nvtx_enabled_ = NvtxEnabled();
  // NVTX forwards ranges to the library named here when the process makes its first NVTX
  // call; CUPTI's NVTX callbacks need that library to be libcupti itself (§5.9).
  if (nvtx_enabled_ && std::getenv("NVTX_INJECTION64_PATH") == nullptr && !cupti_->path.empty()) {
    setenv("NVTX_INJECTION64_PATH", cupti_->path.c_str(), 0);
  }
  SetCallbackDebug(DebugCallbacksEnabled());
  return Status();
}

Status CuptiBackend::Subscribe(BackendSink* sink) {
  hot_.sink.store(sink, std::memory_order_release);
  CUptiResult result = cupti_->subscribe(&subscriber_, &CallbackTrampoline, this);
  if (result == CUPTI_SUCCESS) return Status();
  subscriber_ = nullptr;
  hot_.sink.store(nullptr, std::memory_order_release);
  if (CliMode()) {
    std::fprintf(stderr, "%s\n", StepAsideWarning(cupti_, result, getpid()).c_str());
  }
  return Status::Error(SubscribeErrorMessage(cupti_, result), ErrorKind::kRuntime);
}

Status CuptiBackend::EnableActivity(std::string_view mode, bool pc_sampling) {
  PROTON_RETURN_IF_ERROR(EnableCallbacks(nvtx_enabled_, pc_sampling));
  buffers_ = std::make_unique<BufferPool>(ActivityBufferSize(mode));
  buffers_->Reserve(1);
  SetBufferOwner(this);
  CUptiResult result =
      cupti_->activity_register_callbacks(&BufferRequestedTrampoline, &BufferCompletedTrampoline);
  if (result != CUPTI_SUCCESS) {
    return Status::Error(CuptiCallError(cupti_, "cuptiActivityRegisterCallbacks", result),
                         ErrorKind::kRuntime);
  }
  // Continuous PC sampling needs serialised kernels (§5.4).
  activity_kind_ = pc_sampling ? CUPTI_ACTIVITY_KIND_KERNEL : CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  result = cupti_->activity_enable(activity_kind_);
  if (result != CUPTI_SUCCESS) {
    return Status::Error(CuptiCallError(cupti_, "cuptiActivityEnable", result),
                         ErrorKind::kRuntime);
  }
  return Status();
}

void CuptiBackend::Unsubscribe() {
  DisableCallbacks();
  CheckCupti(cupti_->unsubscribe(subscriber_), "cuptiUnsubscribe");
  subscriber_ = nullptr;
  SetBufferOwner(nullptr);
  hot_.sink.store(nullptr, std::memory_order_release);
}

Status CuptiBackend::Start(BackendSink* sink, std::string_view mode) {
  if (started()) return Status();
  ScopedBackendStart starting;  // CUPTI may run cuInit, which calls InitializeInjection
  bool pc_sampling = ModeName(mode) == "pcsampling";
  if (Status prepared = PrepareStart(mode, pc_sampling); !prepared.ok()) {
    return StepAside(prepared);
  }
  // A refused subscription prints its own warning (StepAsideWarning).
  PROTON_RETURN_IF_ERROR(Subscribe(sink));
  if (Status enabled = EnableActivity(mode, pc_sampling); !enabled.ok()) {
    Unsubscribe();
    return StepAside(enabled);
  }
  hot_.pc_sampler.store(pc_sampling ? pc_sampler_.get() : nullptr, std::memory_order_release);
  max_submitted_.store(0, std::memory_order_release);
  max_completed_.store(0, std::memory_order_release);
  started_.store(true, std::memory_order_release);
  if (CliMode()) RegisterExitFinalizeOnce();
  return Status();
}

void CuptiBackend::SynchronizeContexts() {
  std::vector<CUcontext> contexts;
  {
    MutexLock lock(contexts_mutex_);
    for (const auto& slot : hot_.contexts) {
      if (CUcontext known = slot.load(std::memory_order_relaxed)) contexts.push_back(known);
    }
    contexts.insert(contexts.end(), more_contexts_.begin(), more_contexts_.end());
  }
  if (driver_ == nullptr) return;
  ScopedCallbackGuard guard;
  for (CUcontext context : contexts) {
    if (driver_->ctx_push_current(context) != CUDA_SUCCESS) continue;  // destroyed, or shut down
    CUresult result = driver_->ctx_synchronize();
    CUcontext popped = nullptr;
    driver_->ctx_pop_current(&popped);
    if (result != CUDA_SUCCESS && result != CUDA_ERROR_DEINITIALIZED &&
        !warned_flush_.exchange(true)) {
      std::fprintf(stderr, "[proton] warning: %s; kernels still running may be missing\n",
                   DriverCallError(driver_, "cuCtxSynchronize", result).c_str());
    }
  }
}

void CuptiBackend::Flush(bool synchronize) {
  if (!started()) return;
  // No flush while a launch is being sampled: its start/stop range stays whole, and CUPTI's
  // PC sampling and activity flushing never run at the same time.
  std::unique_lock<Mutex> quiet;
  if (PcSampler* sampler = hot_.pc_sampler.load(std::memory_order_acquire)) {
    quiet = sampler->Quiesce();
  }
  if (synchronize) SynchronizeContexts();
  CheckCupti(cupti_->activity_flush_all(0), "cuptiActivityFlushAll");
  int polls = 0;
  while (max_completed() < max_submitted() && polls < kFlushPolls) {
    std::this_thread::sleep_for(kFlushPollSleep);
    CheckCupti(cupti_->activity_flush_all(0), "cuptiActivityFlushAll");
    ++polls;
  }
  last_flush_polls_ = polls;
  CheckCupti(cupti_->activity_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  // Every record of the launches so far is in: destroyed graphs' nodes may go.
  ReleaseOrigins(hot_.sink.load(std::memory_order_acquire), graphs_.ReleaseRetired(UINT64_MAX));
}

namespace {
// PROTON_VERBOSE: what the phase writer's flush did, at most once a second (it runs every
// 20 ms while a phase waits), so that a phase that is not written says why.
void ReportCompletedFlush(const char* what, uint64_t submitted, uint64_t completed) {
  if (!VerboseEnabled()) return;
  static std::atomic<int64_t> last_s{0};
  int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
  if (last_s.exchange(now) == now) return;
  std::fprintf(stderr, "[proton] phase writer flush: %s (submitted %llu, completed %llu)\n", what,
               static_cast<unsigned long long>(submitted),
               static_cast<unsigned long long>(completed));
}
}  // namespace

void CuptiBackend::FlushCompleted() {
  if (!started()) return;
  CheckCupti(cupti_->activity_flush_all(0), "cuptiActivityFlushAll");
  uint64_t submitted = max_submitted();
  if (max_completed() >= submitted) {
    ReportCompletedFlush("every submitted launch's records are in", submitted, max_completed());
    return;
  }
  // On the H200 (CUDA 13.0) a default flush returns no partly filled buffer, even when every
  // record in it is complete. So: wait for the device here (on this thread only), and force
  // the flush only if the program launched nothing meanwhile; then no kernel is running and
  // no record can be cut short. A program that keeps launching gets its records when a buffer
  // fills (profiler.md §3.11).
  SynchronizeContexts();
  if (max_submitted() != submitted) {
    ReportCompletedFlush("launches during the wait, not forced", submitted, max_completed());
    return;
  }
  CheckCupti(cupti_->activity_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  ReportCompletedFlush("forced after the device was idle", submitted, max_completed());
}

void CuptiBackend::ReleaseOrigins(BackendSink* sink, const std::vector<uint64_t>& origins) {
  if (sink == nullptr) return;
  for (uint64_t origin : origins) sink->OnGraphNodeReleased(origin);
}

void CuptiBackend::Stop() {
  if (!started_.exchange(false)) return;
  if (ProcessExiting()) {
    DetachAtExit();
    ReportCuptiFailures();
    return;
  }
  // §5.6 order: disable activity, clear correlation state, disable callbacks, unsubscribe,
  // finalize. Correlation ids restart after cuptiFinalize, so nothing may survive it. PC
  // sampling stops first (after the sampled launch in flight, if any).
  if (PcSampler* sampler = hot_.pc_sampler.exchange(nullptr, std::memory_order_acq_rel)) {
    sampler->Shutdown();
  }
  CheckCupti(cupti_->activity_disable(activity_kind_), "cuptiActivityDisable");
  ReleaseOrigins(hot_.sink.load(std::memory_order_acquire), graphs_.Clear());
  max_submitted_.store(0, std::memory_order_release);
  max_completed_.store(0, std::memory_order_release);
  {
    MutexLock lock(contexts_mutex_);
    for (auto& slot : hot_.contexts) slot.store(nullptr, std::memory_order_release);
    more_contexts_.clear();
  }
  DisableCallbacks();
  CheckCupti(cupti_->unsubscribe(subscriber_), "cuptiUnsubscribe");
  subscriber_ = nullptr;
  CheckCupti(cupti_->finalize(), "cuptiFinalize");
  SetBufferOwner(nullptr);
  hot_.sink.store(nullptr, std::memory_order_release);
  ReportCuptiFailures();
}

void CuptiBackend::ReportCuptiFailures() const {
  if (!VerboseEnabled() || cupti_calls_.total_failures() == 0) return;
  std::fprintf(stderr, "[proton] CUPTI calls that failed (count): %s\n",
               cupti_calls_.Summary().c_str());
}

void CuptiBackend::DetachAtExit() {
  // At process exit (C atexit of a native program) CUPTI's own exit cleanup and the CUDA
  // runtime's teardown run around this handler: cuptiActivityDisable, cuptiUnsubscribe and
  // cuptiFinalize may meet a torn-down CUPTI (the GPU machine's native target died with SIGSEGV
  // right after its profile was written), and CUPTI may still call us afterwards (context
  // destruction, its final buffer flush). So, like NVIDIA's injection sample, the flush that
  // Finalize did is all: callbacks become no-ops, and the buffers CUPTI may still hold stay
  // allocated (the pool is leaked, as is this object: see register_cupti.cc).
  DetachCallbacks();
  hot_.sink.store(nullptr, std::memory_order_release);
  hot_.pc_sampler.store(nullptr, std::memory_order_release);
  // A detached launch may still hold the sampler's lock: kept, never destroyed.
  g_sampler_kept_at_exit.store(pc_sampler_.release(), std::memory_order_release);
  SetBufferOwner(nullptr);
  g_pool_kept_at_exit.store(buffers_.release(), std::memory_order_release);
}

TimestampFn CuptiBackend::Timestamp() const {
  if (cupti_ == nullptr || cupti_->get_timestamp == nullptr) return nullptr;
  g_get_timestamp.store(cupti_->get_timestamp, std::memory_order_release);
  return &CuptiTimestamp;
}

std::optional<DeviceInfo> CuptiBackend::QueryDevice(uint32_t device_id) {
  if (driver_ == nullptr) return std::nullopt;
  ScopedCallbackGuard guard;
  CUdevice device = 0;
  if (driver_->device_get(&device, static_cast<int>(device_id)) != CUDA_SUCCESS) {
    return std::nullopt;
  }
  auto attribute = [&](CUdevice_attribute which, int* value) {
    return driver_->device_get_attribute(value, which, device) == CUDA_SUCCESS;
  };
  int major = 0, minor = 0, sms = 0, clock = 0, memory_clock = 0, bus_width = 0;
  if (!attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major) ||
      !attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor) ||
      !attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &sms) ||
      !attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &clock) ||
      !attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, &memory_clock) ||
      !attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &bus_width)) {
    return std::nullopt;
  }
  DeviceInfo info;
  info.type = "CUDA";
  info.arch = std::to_string(major * 10 + minor);
  info.num_sms = static_cast<uint64_t>(sms);
  info.clock_rate = static_cast<uint64_t>(clock);
  info.memory_clock_rate = static_cast<uint64_t>(memory_clock);
  info.bus_width = static_cast<uint64_t>(bus_width);
  return info;
}

void CuptiBackend::OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *max_records = 0;
  *buffer = buffers_ != nullptr ? buffers_->Acquire() : nullptr;
  *size = *buffer != nullptr ? buffers_->buffer_size() : 0;
}

void CuptiBackend::OnBufferCompleted(CUcontext context, uint32_t stream_id, uint8_t* buffer,
                                     size_t valid_size) {
  BackendSink* sink = hot_.sink.load(std::memory_order_acquire);
  try {
    if (sink != nullptr && cupti_ != nullptr) {
      BufferStats stats = DecodeActivityBuffer(*cupti_, buffer, valid_size, &graphs_, sink);
      if (stats.incomplete != 0) sink->OnRecordsLost(RecordLoss::kIncomplete, stats.incomplete);
      size_t dropped = 0;
      if (cupti_->activity_get_num_dropped_records(context, stream_id, &dropped) == CUPTI_SUCCESS &&
          dropped != 0) {
        sink->OnRecordsLost(RecordLoss::kDropped, dropped);
      }
      // A program that destroys graphs for ever between flushes must not grow: past a bound,
      // nodes retired before the records seen so far go.
      constexpr size_t kMaxRetiredGraphNodes = 4096;
      if (graphs_.retired_count() > kMaxRetiredGraphNodes) {
        ReleaseOrigins(sink, graphs_.ReleaseRetired(max_completed()));
      }
      if (stats.max_correlation_id != 0) {
        sink->OnBufferCompleted(stats.max_correlation_id);
        uint64_t seen = max_completed_.load(std::memory_order_relaxed);
        while (stats.max_correlation_id > seen &&
               !max_completed_.compare_exchange_weak(seen, stats.max_correlation_id,
                                                     std::memory_order_acq_rel)) {
        }
      }
    }
  } catch (const std::exception&) {
    // Nothing may leave a CUPTI callback; the records of this buffer are lost.
  } catch (...) {
  }
  if (buffers_ != nullptr) buffers_->Release(buffer);
}

}  // namespace proton::cupti
