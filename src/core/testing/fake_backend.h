// A fake GPU backend for tests (profiler.md §5.15): the test thread plays the driver and
// CUPTI. It emits launch callbacks, graph capture events and NVTX ranges through the same
// BackendSink the real backend uses, and delivers kernel records late, out of order, split
// across buffers, incomplete or dropped. The real correlation, data and writer code runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/backend/registry.h"

namespace proton {

// A record the fake keeps until it is delivered (owns its name).
struct FakeRecord {
  uint64_t correlation_id = 0;
  std::string name;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t device_id = 0;
  uint32_t stream_id = 7;
  uint32_t graph_id = 0;
  uint64_t graph_node_id = 0;
};

class FakeBackend : public Backend {
 public:
  // "fake" (available: always), for RuntimeOptions::backends.
  static BackendRegistration Registration();
  // Registers it in the process runtime's registry. Idempotent.
  static void Register();
  // The instance the registry created for the running session, or nullptr.
  static FakeBackend* Current();
  // The H200 of the reference files.
  static DeviceInfo H200();
  // The next Start fails with `message` (like CUPTI refusing a second subscriber).
  static void FailNextStart(std::string message);

  std::string_view Name() const override { return "fake"; }
  Status Start(BackendSink* sink, std::string_view mode) override;
  // Delivers every queued record as one buffer (what cuptiActivityFlushAll does).
  void Flush(bool synchronize) override;
  // Counted only: the fake's records arrive when the test completes a buffer or flushes, so
  // tests decide when a phase's records come in.
  void FlushCompleted() override { completed_flushes_.fetch_add(1, std::memory_order_relaxed); }
  int completed_flushes() const { return completed_flushes_.load(std::memory_order_relaxed); }
  void Stop() override;
  std::optional<DeviceInfo> QueryDevice(uint32_t device_id) override;
  // The fake GPU clock; each read advances it by kCpuTick, so that CPU events are ordered
  // and a kernel starts after its launch.
  TimestampFn Timestamp() const override;
  static constexpr uint64_t kCpuTick = 100;

  // ---- driven by tests, on the thread that "launches" ----
  // A kernel launch: enter + exit callbacks with a fresh correlation id (restarting at 1 after
  // Stop, like CUPTI). Returns the id.
  uint64_t Launch(std::string_view symbol, uint32_t expected_records = 1);
  // Like Launch, then queues its record: duration `dur_ns`, starting at the fake GPU clock.
  uint64_t LaunchAndRun(std::string_view symbol, uint64_t dur_ns, uint32_t stream = 7);
  uint64_t NextCorrelationId() { return ++last_correlation_; }
  // Queues a record for the next buffer.
  void Queue(FakeRecord record);
  // Delivers the queued records in `order` (indices into the queue; empty = as queued) as one
  // completed buffer, keeping the rest queued.
  void CompleteBuffer(const std::vector<size_t>& order = {});
  void Drop(uint64_t count);  // CUPTI reported dropped records
  BackendSink* sink() { return sink_; }
  uint64_t clock_ns() const { return clock_ns_.load(); }
  void set_device(uint32_t id, DeviceInfo info);
  int flush_count() const { return flush_count_; }
  // Whether the last Flush of any fake backend synchronized (it outlives the backend, which
  // finalize frees).
  static bool LastFlushSynchronized();
  size_t queued() const { return queue_.size(); }  // records not delivered yet

 private:
  BackendSink* sink_ = nullptr;
  uint64_t last_correlation_ = 0;
  std::atomic<uint64_t> clock_ns_{1'000'000};  // read by the trace clock on any thread
  std::deque<FakeRecord> queue_;
  std::vector<std::pair<uint32_t, DeviceInfo>> devices_;
  int flush_count_ = 0;
  std::atomic<int> completed_flushes_{0};
};

}  // namespace proton
