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
  void BeforeLaunch(CUcontext context);
  // Launch exit of the same launch: stops sampling, drains every PC into `out`, releases the
  // launch lock.
  void AfterLaunch(LaunchSamples* out);

  void ModuleLoaded(const char* cubin, size_t size);
  void ModuleUnloading(const char* cubin, size_t size);
  // The context goes away: disable sampling in it and forget its state.
  void ContextDestroying(CUcontext context);

  // Waits (bounded) for the sampled launch in flight; the returned lock keeps the next one out
  // while the caller flushes the activity buffers.
  std::unique_lock<std::mutex> Quiesce();
  // Disables sampling in every enabled context and reports what was lost.
  void Shutdown();

  int sampling_exponent() const { return exponent_; }
  uint64_t total_samples() const { return total_samples_; }
  uint64_t dropped_samples() const { return dropped_samples_; }
  uint64_t sampled_launches() const { return sampled_launches_; }

 private:
  struct ContextState;
  struct PcBuffer;
  struct Cubin {
    const char* data = nullptr;
    size_t size = 0;
    int references = 0;
  };
  ContextState* EnsureContext(CUcontext context);
  Status EnableContext(ContextState* state);
  Status ConfigureStallReasons(ContextState* state);
  Status Configure(ContextState* state);
  void StopAndDrain(LaunchSamples* out);
  void Drain(ContextState* state, LaunchSamples* out);
  size_t Consume(const StallReasonTable& reasons, PcBuffer& buffer,
                 std::unordered_map<std::string, size_t>* groups, LaunchSamples* out);
  void ReportFirstDrain(size_t from_stop, size_t from_reads);
  const std::string& SourceOf(const CUpti_PCSamplingPCData& pc);
  uint64_t CubinCrc(const char* cubin, size_t size) const;
  void ReportOnce(const std::string& message);
  void Disable(ContextState* state);

  const DriverApi* driver_;
  const CuptiApi* cupti_;
  const int exponent_;
  std::mutex launch_mutex_;  // held from BeforeLaunch to AfterLaunch
  // Guarded by launch_mutex_:
  std::unordered_map<CUcontext, std::unique_ptr<ContextState>> contexts_;
  ContextState* active_ = nullptr;  // the context sampling was started in, if any
  uint64_t total_samples_ = 0;
  uint64_t dropped_samples_ = 0;
  uint64_t unknown_reason_samples_ = 0;
  uint64_t sampled_launches_ = 0;
  bool hardware_buffer_full_ = false;
  bool reported_first_drain_ = false;
  // Source lines per (cubin CRC, function index, PC offset); guarded by launch_mutex_.
  std::unordered_map<std::string, std::string> sources_;
  std::mutex modules_mutex_;                    // module callbacks may run inside a launch
  std::unordered_map<uint64_t, Cubin> cubins_;  // guarded by modules_mutex_
  std::mutex report_mutex_;
  std::vector<std::string> reported_;  // guarded by report_mutex_
};

}  // namespace proton::cupti
