// The seam between the profiler core and a GPU activity backend (CUPTI today, a fake in tests,
// ROCm later). Backends decode vendor records into these neutral types; the core never sees a
// vendor header. Ownership: the core owns the Backend object; the backend calls the sink.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/backend/pc_sample.h"
#include "util/status.h"

namespace proton {

// One finished kernel execution, decoded from an activity record.
struct KernelRecord {
  uint64_t correlation_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t device_id = 0;  // CUDA ordinal in this process
  uint32_t stream_id = 0;
  std::string_view name;  // valid only during the OnKernelRecord call
  uint32_t graph_id = 0;  // graph exec id when the kernel ran inside a CUDA graph, else 0
  // When graph_id != 0: the capture key passed to BackendSink::OnGraphNodeCaptured for the node
  // this kernel was cloned from, or 0 when no capture path was recorded (fallback: attribute
  // under the launch path by `name`, §3.8).
  uint64_t graph_node_id = 0;
  // The launch's CPU time (trace clock) and OS thread id, for trace sessions' flows: set by the
  // correlator from the launch's stamp (correlation/launch_stamp.h), 0 when unknown. Backends
  // leave them 0.
  uint64_t launch_ns = 0;
  uint64_t launch_thread = 0;
};

// Static properties of one device, as written in the profile's device table.
struct DeviceInfo {
  std::string type = "CUDA";       // "CUDA" or "HIP"
  std::string arch;                // "90" (major*10+minor) or "gfx942"
  uint64_t bus_width = 0;          // bits
  uint64_t clock_rate = 0;         // kHz
  uint64_t memory_clock_rate = 0;  // kHz
  uint64_t num_sms = 0;
};

// Why records were lost; counted by the core and reported once at finalize.
enum class RecordLoss { kDropped, kIncomplete, kUnknownCorrelation };

// Implemented by the core. Thread annotations say who calls what.
class BackendSink {
 public:
  virtual ~BackendSink() = default;
  // Application thread, at API enter of a kernel launch (not during stream capture).
  // Captures the context path in every active session and remembers it under
  // `correlation_id`. `kernel_name` may be empty (graph launches); `expected_records` is 1 for a
  // kernel launch, the number of kernel nodes for a graph launch, 0 when unknown (a graph
  // instantiated before profiling started: keep the state until the next flush completes).
  virtual void OnLaunchEnter(uint64_t correlation_id, std::string_view kernel_name,
                             uint32_t expected_records) = 0;
  // Application thread, at API exit of the same launch.
  virtual void OnLaunchExit(uint64_t correlation_id) = 0;
  // Buffer thread (or the flushing thread): one decoded record.
  virtual void OnKernelRecord(const KernelRecord& record) = 0;
  // Buffer thread: the highest correlation id seen in a completed buffer.
  virtual void OnBufferCompleted(uint64_t max_correlation_id) = 0;
  virtual void OnRecordsLost(RecordLoss why, uint64_t count) = 0;
  // Application thread: NVTX push/pop ranges become scopes on that thread.
  virtual void OnNvtxPush(std::string_view message) = 0;
  virtual void OnNvtxPop() = 0;
  // CUDA graphs (§5.10). Application thread, inside a kernel launch made while the thread
  // captures a stream (no OnLaunchEnter is sent for such launches): a kernel node was created.
  // The core records the capture path (current context path plus `kernel_name`, or the open
  // op) under `capture_key`; replayed records carry the key as KernelRecord::graph_node_id.
  virtual void OnGraphNodeCaptured(uint64_t capture_key, std::string_view kernel_name) {
    (void)capture_key;
    (void)kernel_name;
  }
  // Any thread: no graph node refers to `capture_key` any more; the core may free its path.
  virtual void OnGraphNodeReleased(uint64_t capture_key) { (void)capture_key; }
  // PC sampling (§5.13). Application thread, at API exit of a sampled kernel launch, before
  // OnLaunchExit: the samples of that launch, grouped by place. Such a launch was entered with
  // one more expected record than it has kernel records; this call is that record, so it is
  // made exactly once per sampled launch, with an empty batch when sampling failed.
  virtual void OnPcSamples(uint64_t correlation_id, std::span<const PcSample> samples) {
    (void)correlation_id;
    (void)samples;
  }
};

// A backend's clock: now, in ns on the clock of its kernel records (KernelRecord::start_ns).
// A plain function, so that application threads can read it without touching the backend.
using TimestampFn = uint64_t (*)();

// Implemented by each backend; every method is pure, so that a backend wrapping another (the
// registry's owning CUPTI backend) cannot silently drop one. All methods run on the thread of the
// API call that needs them (start/finalize/deactivate), never inside a vendor callback.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view Name() const = 0;  // "cupti", "fake"
  // Subscribes and enables activity collection. `mode` is the session mode string ("" for
  // kernel activity only). Errors are clear one-line messages (e.g. the second-subscriber one).
  virtual Status Start(BackendSink* sink, std::string_view mode) = 0;
  // Delivers every completed record to the sink (§5.6 of the profiler spec). `synchronize`
  // is false on the signal path, where a hung kernel must not block the flush.
  virtual void Flush(bool synchronize) = 0;
  // Delivers the records of kernels that already finished, never forcing out records of kernels
  // still running (those would arrive incomplete and be lost). May wait for the device on the
  // calling thread. Called during the run by the phase writer thread, outside every core lock
  // (profiler.md §5.14).
  virtual void FlushCompleted() = 0;
  // Disables collection and unsubscribes, so another tool can subscribe afterwards.
  virtual void Stop() = 0;
  // Queried once per device id seen in a record, then cached by the core.
  virtual std::optional<DeviceInfo> QueryDevice(uint32_t device_id) = 0;
  // The clock that trace data stamps CPU events with (scopes, launches), so that they share
  // the kernels' time line; nullptr: the core's default (CLOCK_REALTIME).
  virtual TimestampFn Timestamp() const = 0;
};

}  // namespace proton
