// The core's BackendSink (profiler.md §5.5): remembers, per correlation id, the nodes captured
// at launch in every active session, and attributes kernel records to them when they arrive
// (late, out of order, after scope exit or deactivate). Counts lost records and reports them
// once per backend lifetime. Also keeps the capture paths of CUDA graph nodes (§3.8).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/backend/backend.h"
#include "core/context/thread_context.h"
#include "core/fork_guard.h"

namespace proton {

struct LossCounters {
  uint64_t dropped = 0;
  uint64_t incomplete = 0;
  uint64_t unknown = 0;                  // records whose correlation id we never stored
  uint64_t uncorrelated_launches = 0;    // launches while no session was active (expected unknowns)
  uint64_t pc_samples_unattributed = 0;  // PC-sample batches whose launch state was gone
};

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
  // The launch path (§7.4): a launch's targets live in a slot of a preallocated ring indexed
  // by correlation id, written and read without a lock. The slot's key says who owns it: 0 =
  // free, kBusy = a thread is writing or reading it, else the correlation id stored there.
  // Slot targets point at their data without owning it (MakeData). Launches whose slot is
  // taken (more than kRingSize in flight) or with more than kInlineTargets sessions go to the
  // locked map below, whose entries own their data. A launch with an unknown record count
  // (remaining 0) keeps its slot until the next flush, or until a launch kRingSize ids later
  // reclaims it.
  // 65536 slots of 128 bytes (8 MiB, allocated at the first launch): with 64 MiB activity
  // buffers delivered only when full or flushed, tens of thousands of launches can be in
  // flight; past that, launches take the slower map path. A slot starts a cache line, so a
  // launch into one session writes one line (the ring is always cold: every launch takes the
  // next slot).
  static constexpr size_t kRingSize = size_t{1} << 16;
  static constexpr size_t kInlineTargets = 2;
  static constexpr uint64_t kBusy = UINT64_MAX;
  struct alignas(64) Slot {
    std::atomic<uint64_t> key{0};
    uint32_t remaining = 0;
    uint32_t count = 0;
    CaptureTarget targets[kInlineTargets];
  };
  struct Entry {
    std::vector<CaptureTarget> targets;
    std::vector<std::shared_ptr<Data>> owners;  // keep the targets' data alive
    uint32_t remaining;                         // 0 = unknown (graph instantiated before profiling)
    bool capturing = false;                     // made by a launch whose capture has not finished
  };
  Slot* Ring();
  // Hands back a slot this thread holds (key kBusy) with `key`: 0 frees it, a correlation id
  // stores the launch there. Only the holder moves a slot out of kBusy (checked in debug).
  static void ReleaseSlot(Slot& slot, uint64_t key);
  // Takes `slot` for a new launch (key kBusy): free, or held by an unknown-count launch.
  bool TakeSlot(Slot& slot);
  void FreeUnknownCountSlots();
  void ClearRing(bool after_fork);
  // Takes `slot` (kBusy) unless it is free; waits while another thread holds it. Returns the
  // key it had (0: free, not taken).
  uint64_t HoldUnlessFree(Slot& slot);
  // FreeRetiredData; `ring_clear`: no slot is taken (Reset), so no walk is needed.
  void DeleteRetired(bool ring_clear);
  void LaunchEnterSlow(uint64_t correlation_id, std::string_view kernel_name,
                       uint32_t expected_records);
  void Apply(const CaptureTarget* targets, size_t count, const KernelRecord& record);
  // The capture path (in `session_id`) of the graph node a replayed kernel's record names.
  const std::vector<std::string>* GraphPathLocked(const KernelRecord& record, int session_id) const;
  const std::vector<std::string>* CapturedPathLocked(uint64_t capture_key, int session_id) const;
  void ApplyPcSamples(const CaptureTarget* targets, size_t count,
                      std::span<const PcSample> samples);
  // Consumes one of the records expected for `id`: calls apply(targets, count) while the
  // launch's state is held, and frees the state after its last record. False when `id` is
  // unknown (no state was kept, or all its records arrived).
  template <typename ApplyFn>
  bool ConsumeRecord(uint64_t id, ApplyFn&& apply);

  std::once_flag ring_once_;
  std::unique_ptr<Slot[]> ring_;  // allocated at the first launch
  std::atomic<Slot*> ring_ptr_{nullptr};
  std::atomic<bool> unknown_count_in_ring_{false};
  ForkGuardedMutex mutex_{LockRank::kCorrelator};
  std::unordered_map<uint64_t, Entry> entries_;
  std::vector<uint64_t> unknown_count_ids_;
  std::unordered_map<uint64_t, std::vector<std::pair<int, std::vector<std::string>>>> graph_paths_;
  std::unordered_map<uint64_t, std::string> graph_key_names_;  // capture key -> kernel name
  std::unordered_map<std::string, std::vector<uint64_t>> graph_keys_by_name_;
  LossCounters counters_;
  std::atomic<uint64_t> max_completed_{0};
};

}  // namespace proton
