// CUPTI PC sampling state of the backend (profiler.md §5.13): per context, enable and
// configure at its first sampled launch; per module, the cubin by CRC for source lines; per
// launch, start sampling at API enter and stop and drain it at API exit, grouping the samples
// by (function, source line) for BackendSink::OnPcSamples.
// Threads: BeforeLaunch/AfterLaunch on the launching thread, as a pair: the launch lock is
// held from one to the other, so sampled launches are serialised (one start/stop range at a
// time; the activity kind is serialised too, §5.4). Module callbacks may run inside a launch
// (lazy loading) and take only the module lock. Quiesce/Shutdown on the API thread wait for
// the launch in flight, so no flush runs while sampling is on.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/backend/pc_sample.h"
#include "cupti/cupti_api.h"
#include "cupti/pc_sampling_decoder.h"
#include "util/status.h"
#include "util/thread_annotations.h"

namespace proton::cupti {

// The samples of one launch: PcSample views point into `names`.
struct LaunchSamples {
  std::vector<PcSample> samples;
  std::vector<std::unique_ptr<std::string>> names;  // stable storage for the views
  void Clear() {
    samples.clear();
    names.clear();
  }
};

class PcSampler {
 public:
  // §5.13 sizes.
  static constexpr size_t kHardwareBufferBytes = size_t{128} << 20;
  static constexpr size_t kScratchBufferBytes = size_t{16} << 20;
  static constexpr size_t kPcsPerRead = 1024;

  PcSampler(const DriverApi* driver, const CuptiApi* cupti, int sampling_exponent);
  ~PcSampler();
  PcSampler(const PcSampler&) = delete;
  PcSampler& operator=(const PcSampler&) = delete;

  // At backend Start: the entry points exist and the PC record ABI matches.
  static Status CheckAvailable(const CuptiApi* cupti);

  // Launch enter, after the correlation capture: takes the launch lock, enables `context` at
  // its first launch, synchronises it and starts sampling. Failures are reported once.
  // Unchecked: the lock is taken here and released by AfterLaunch, in another CUPTI callback
  // (API enter and exit), which the analysis cannot pair.
  void BeforeLaunch(CUcontext context) PROTON_NO_THREAD_SAFETY_ANALYSIS;
  // Launch exit of the same launch: stops sampling, drains every PC into `out`, releases the
  // launch lock (unchecked, as BeforeLaunch).
  void AfterLaunch(LaunchSamples* out) PROTON_NO_THREAD_SAFETY_ANALYSIS;

  void ModuleLoaded(const char* cubin, size_t size) PROTON_EXCLUDES(modules_mutex_);
  void ModuleUnloading(const char* cubin, size_t size) PROTON_EXCLUDES(modules_mutex_);
  // The context goes away: disable sampling in it and forget its state.
  void ContextDestroying(CUcontext context) PROTON_EXCLUDES(launch_mutex_);

  // Waits (bounded) for the sampled launch in flight; the returned lock keeps the next one out
  // while the caller flushes the activity buffers.
  std::unique_lock<Mutex> Quiesce() PROTON_EXCLUDES(launch_mutex_);
  // Disables sampling in every enabled context and reports what was lost.
  void Shutdown() PROTON_EXCLUDES(launch_mutex_);

  int sampling_exponent() const { return exponent_; }
  // For tests, once no sampled launch is in flight: unchecked, so that reading them never
  // waits for a launch.
  uint64_t total_samples() const PROTON_NO_THREAD_SAFETY_ANALYSIS { return total_samples_; }
  uint64_t dropped_samples() const PROTON_NO_THREAD_SAFETY_ANALYSIS { return dropped_samples_; }
  uint64_t sampled_launches() const PROTON_NO_THREAD_SAFETY_ANALYSIS { return sampled_launches_; }

 private:
  struct ContextState;
  struct PcBuffer;
  struct Cubin {
    const char* data = nullptr;
    size_t size = 0;
    int references = 0;
  };
  ContextState* EnsureContext(CUcontext context) PROTON_REQUIRES(launch_mutex_);
  Status EnableContext(ContextState* state) PROTON_REQUIRES(launch_mutex_);
  Status ConfigureStallReasons(ContextState* state) PROTON_REQUIRES(launch_mutex_);
  Status Configure(ContextState* state) PROTON_REQUIRES(launch_mutex_);
  void StopAndDrain(LaunchSamples* out) PROTON_REQUIRES(launch_mutex_);
  void Drain(ContextState* state, LaunchSamples* out) PROTON_REQUIRES(launch_mutex_);
  size_t Consume(const StallReasonTable& reasons, PcBuffer& buffer,
                 std::unordered_map<std::string, size_t>* groups, LaunchSamples* out)
      PROTON_REQUIRES(launch_mutex_);
  void ReportFirstDrain(size_t from_stop, size_t from_reads) PROTON_REQUIRES(launch_mutex_);
  const std::string& SourceOf(const CUpti_PCSamplingPCData& pc) PROTON_REQUIRES(launch_mutex_)
      PROTON_EXCLUDES(modules_mutex_);
  uint64_t CubinCrc(const char* cubin, size_t size) const;
  void ReportOnce(const std::string& message) PROTON_EXCLUDES(report_mutex_);
  void Disable(ContextState* state) PROTON_REQUIRES(launch_mutex_);
  // Shutdown's work once the launch lock is held.
  void ShutdownLocked() PROTON_REQUIRES(launch_mutex_);
  void ReportQuiesceTimeout();

  const DriverApi* driver_;
  const CuptiApi* cupti_;
  const int exponent_;
  Mutex launch_mutex_;  // held from BeforeLaunch to AfterLaunch
  std::unordered_map<CUcontext, std::unique_ptr<ContextState>> contexts_
      PROTON_GUARDED_BY(launch_mutex_);
  // The context sampling was started in, if any.
  ContextState* active_ PROTON_GUARDED_BY(launch_mutex_) = nullptr;
  uint64_t total_samples_ PROTON_GUARDED_BY(launch_mutex_) = 0;
  uint64_t dropped_samples_ PROTON_GUARDED_BY(launch_mutex_) = 0;
  uint64_t unknown_reason_samples_ PROTON_GUARDED_BY(launch_mutex_) = 0;
  uint64_t sampled_launches_ PROTON_GUARDED_BY(launch_mutex_) = 0;
  bool hardware_buffer_full_ PROTON_GUARDED_BY(launch_mutex_) = false;
  bool reported_first_drain_ PROTON_GUARDED_BY(launch_mutex_) = false;
  // Source lines per (cubin CRC, function index, PC offset).
  std::unordered_map<std::string, std::string> sources_ PROTON_GUARDED_BY(launch_mutex_);
  Mutex modules_mutex_;  // module callbacks may run inside a launch
  std::unordered_map<uint64_t, Cubin> cubins_ PROTON_GUARDED_BY(modules_mutex_);
  Mutex report_mutex_;
  std::vector<std::string> reported_ PROTON_GUARDED_BY(report_mutex_);
};

}  // namespace proton::cupti
