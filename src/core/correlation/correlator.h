// The core's BackendSink (profiler.md §5.5): remembers, per correlation id, the nodes captured
// at launch in every active session, and attributes kernel records to them when they arrive
// (late, out of order, after scope exit or deactivate). The Correlator itself only correlates
// (launch id -> targets, record -> nodes) and delegates the rest: where launches wait
// (launch_ring.h, launch_map.h), CUDA graph capture paths (graph_paths.h, §3.8), loss counters
// (loss_counters.h), PC-sample attribution (pc_sample_attribution.h), the recording's lines
// (recording_hooks.h) and the data no slot may point at any more (retired_data.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>

#include "core/backend/backend.h"
#include "core/context/thread_context.h"
#include "core/correlation/graph_paths.h"
#include "core/correlation/launch_map.h"
#include "core/correlation/launch_ring.h"
#include "core/correlation/loss_counters.h"

namespace proton {

class Correlator : public BackendSink {
 public:
  // Application threads.
  void OnLaunchEnter(uint64_t correlation_id, std::string_view kernel_name,
                     uint32_t expected_records) override;
  void OnLaunchExit(uint64_t correlation_id) override;
  void OnNvtxPush(std::string_view message) override;
  void OnNvtxPop() override;
  void OnGraphNodeCaptured(uint64_t capture_key, std::string_view kernel_name) override;
  // Buffer thread or flushing thread.
  void OnKernelRecord(const KernelRecord& record) override;
  // Application thread (launch exit): one expected record's worth of PC samples.
  void OnPcSamples(uint64_t correlation_id, std::span<const PcSample> samples) override;
  void OnBufferCompleted(uint64_t max_correlation_id) override;
  void OnRecordsLost(RecordLoss why, uint64_t count) override;
  // Any thread.
  void OnGraphNodeReleased(uint64_t capture_key) override;

  // Finalize thread, after the backend flushed: frees state of graph launches whose record
  // count was unknown (§3.8: no per-launch state beyond the flush that completes it).
  void AfterFlush();
  // Clears every map and counter (before the backend unsubscribes: correlation ids restart).
  // `after_fork`: in a forked child, ring slots held by threads that no longer exist are
  // taken instead of waited for.
  void Reset(bool after_fork = false);
  // The one-line loss warning for the counters so far ("" when nothing was lost).
  std::string LossWarning();
  // Phase completion (profiler.md §3.11): adds to `out` the data of every launch whose
  // records have not all arrived (or are being applied). Reads every busy ring slot, so it runs
  // on the phase writer's thread or an API thread, never per launch.
  void CollectDataInFlight(std::unordered_map<const Data*, size_t>* out);
  LossCounters counters();
  size_t pending_entries();       // tests: correlation entries alive
  size_t heap_entries();          // tests: entries outside the preallocated ring
  size_t captured_graph_nodes();  // tests: graph capture paths alive

  // Every session's data is made here. Ring slots hold it by plain pointer, so that a launch
  // copies no shared_ptr (two reference-count cache lines per launch); in exchange, data whose
  // last owner let go is not deleted at once but retired, and freed by FreeRetiredData once no
  // busy ring slot refers to it. No thread can capture into retired data any more: its
  // threads' context caches (which own it) have dropped it.
  static std::shared_ptr<Data> MakeData(std::unique_ptr<Data> data);
  // API thread (finalize), and Reset: drops retired data from the ring slots still waiting for
  // records (those records are then counted but applied nowhere) and deletes it.
  void FreeRetiredData();
  static size_t retired_data();  // tests: retired data not yet freed

 private:
  // The launch path (§7.4): a launch's targets go into its ring slot, without a lock. Launches
  // whose slot is taken (more than LaunchRing::kSize in flight), with more sessions than a slot
  // holds, or with ids the ring never uses go to the locked map, whose entries own their data.
  void LaunchEnterSlow(uint64_t correlation_id, std::string_view kernel_name,
                       uint32_t expected_records, const LaunchStamp& stamp);
  void Apply(const CaptureTarget* targets, size_t count, const KernelRecord& record,
             const LaunchStamp& stamp);
  // Consumes one of the records expected for `id`, from the ring or else the map: calls
  // apply(targets, count, stamp) while the launch's state is held, and frees the state after its
  // last record. False when `id` is unknown (no state was kept, or all its records arrived).
  template <typename ApplyFn>
  bool ConsumeRecord(uint64_t id, ApplyFn&& apply);
  // FreeRetiredData; `ring_clear`: no slot is taken (Reset), so no walk is needed.
  void DeleteRetired(bool ring_clear);

  LaunchRing ring_;
  LaunchMap map_;
  GraphPaths graphs_;
  LossAccounting losses_;
  std::atomic<uint64_t> max_completed_{0};
};

}  // namespace proton
