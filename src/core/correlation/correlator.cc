// Correlator; see correlator.h.
#include "core/correlation/correlator.h"

#include <algorithm>
#include <cstdio>
#include <new>
#include <thread>

#include "core/config/config.h"
#include "core/data/tree_data.h"
#include "core/hot_flags.h"
#include "core/record/recorder.h"
#include "util/check.h"

namespace proton {
namespace {

constexpr std::string_view kCapturedAt = "<captured_at>";

void AtomicMax(std::atomic<uint64_t>& a, uint64_t v) {
  uint64_t cur = a.load(std::memory_order_relaxed);
  while (cur < v && !a.compare_exchange_weak(cur, v, std::memory_order_acq_rel)) {
  }
}

std::atomic<bool> g_graph_fallback_warned{false};

// Data whose last owner let go, waiting for Correlator::FreeRetiredData. Never destroyed, so
// that data retired during static destruction still has somewhere to go.
struct Retired {
  ForkGuardedMutex mutex{LockRank::kRetiredData};
  std::vector<Data*> data;
};
Retired& RetiredData() {
  static Retired* retired = new Retired;
  return *retired;
}

}  // namespace

Correlator::Slot* Correlator::Ring() {
  Slot* ring = ring_ptr_.load(std::memory_order_acquire);
  if (ring != nullptr) return ring;
  std::call_once(ring_once_, [this] {
    ring_ = std::make_unique<Slot[]>(kRingSize);
    ring_ptr_.store(ring_.get(), std::memory_order_release);
  });
  return ring_ptr_.load(std::memory_order_acquire);
}

namespace {

// What a launch does besides capture, only while some session needs it (g_hot.launch_extras):
// the recording's line, the trace sessions' launch stamp. Out of line, so that the launch path
// of other sessions carries only the one flag test.
[[gnu::noinline]] void LaunchExtras(uint64_t correlation_id, std::string_view kernel_name,
                                    uint32_t expected_records) {
  if (Recording()) {
    RecordLine("launch_enter")
        .Uint("corr", correlation_id)
        .Str("name", kernel_name)
        .Uint("expected", expected_records);
  }
  if (g_hot.launch_extras.load(std::memory_order_relaxed) & kLaunchExtraTrace) {
    ContextStampTraceLaunch(correlation_id);
  }
}

}  // namespace

void Correlator::OnLaunchEnter(uint64_t correlation_id, std::string_view kernel_name,
                               uint32_t expected_records) {
  if (g_hot.launch_extras.load(std::memory_order_relaxed) != 0) [[unlikely]] {
    LaunchExtras(correlation_id, kernel_name, expected_records);
  }
  if (correlation_id == 0 || correlation_id == kBusy) {
    LaunchEnterSlow(correlation_id, kernel_name, expected_records);
    return;
  }
  Slot& slot = Ring()[correlation_id & (kRingSize - 1)];
  if (!TakeSlot(slot)) {
    LaunchEnterSlow(correlation_id, kernel_name, expected_records);  // ring wrapped
    return;
  }
  if (expected_records == 0) unknown_count_in_ring_.store(true, std::memory_order_relaxed);
  // The slot is ours: capture straight into it (no record for this id exists yet).
  size_t count = CaptureLaunch(kernel_name, slot.targets, kInlineTargets);
  if (count == 0 || count > kInlineTargets) {
    ReleaseSlot(slot, 0);
    if (count == 0) {
      std::lock_guard<ForkGuardedMutex> lock(mutex_);
      ++counters_.uncorrelated_launches;
      return;
    }
    LaunchEnterSlow(correlation_id, kernel_name, expected_records);
    return;
  }
  PROTON_DCHECK(count <= kInlineTargets) << "slot of launch " << correlation_id;
  slot.count = static_cast<uint32_t>(count);
  slot.remaining = expected_records;
  ReleaseSlot(slot, correlation_id);
}

void Correlator::ReleaseSlot(Slot& slot, uint64_t key) {
  PROTON_DCHECK(key != kBusy) << "a held slot is handed back still busy";
  PROTON_DCHECK(slot.key.load(std::memory_order_relaxed) == kBusy)
      << "slot handed back by a thread that does not hold it (key "
      << slot.key.load(std::memory_order_relaxed) << ")";
  slot.key.store(key, std::memory_order_release);
}

bool Correlator::TakeSlot(Slot& slot) {
  uint64_t key = 0;
  // seq_cst (the same instruction as acquire on x86): the launch's later read of the session
  // epoch must not pass this store, or CollectDataInFlight, which bumps the epoch before it
  // reads the slots, could miss a launch that still captures into a sealed phase.
  if (slot.key.compare_exchange_strong(key, kBusy, std::memory_order_seq_cst)) return true;
  if (key == kBusy) return false;
  // Held by a launch kRingSize ids ago. One whose record count is known still waits for its
  // records; one whose count is unknown (a graph instantiated before profiling) is never
  // freed by its records, so it is reclaimed here: that keeps such replays, which may run
  // for ever without a flush, within the preallocated ring (§3.8: no memory growth).
  if (!slot.key.compare_exchange_strong(key, kBusy, std::memory_order_acquire)) return false;
  if (slot.remaining == 0) return true;
  ReleaseSlot(slot, key);
  return false;
}

void Correlator::LaunchEnterSlow(uint64_t correlation_id, std::string_view kernel_name,
                                 uint32_t expected_records) {
  {
    // The entry exists before the capture reads the session epoch, so CollectDataInFlight
    // waits for a capture that may still go into a sealed phase.
    std::lock_guard<ForkGuardedMutex> lock(mutex_);
    entries_[correlation_id] = Entry{{}, {}, expected_records, /*capturing=*/true};
  }
  std::vector<CaptureTarget> targets(kInlineTargets);
  size_t count = CaptureLaunch(kernel_name, targets.data(), targets.size());
  if (count > targets.size()) {
    targets.resize(count);
    count = CaptureLaunch(kernel_name, targets.data(), targets.size());
  }
  targets.resize(std::min(count, targets.size()));
  // This thread's context cache owns the data until its next refresh: take our own share.
  std::vector<std::shared_ptr<Data>> owners;
  owners.reserve(targets.size());
  for (const CaptureTarget& target : targets) owners.push_back(target.data->shared_from_this());
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  if (targets.empty()) {
    entries_.erase(correlation_id);
    ++counters_.uncorrelated_launches;
    return;
  }
  entries_[correlation_id] = Entry{std::move(targets), std::move(owners), expected_records, false};
  if (expected_records == 0) unknown_count_ids_.push_back(correlation_id);
}

void Correlator::OnLaunchExit(uint64_t correlation_id) {
  // The backend tracks the highest submitted id for its flush loop (§5.6); nothing to keep.
  if (Recording()) RecordLine("launch_exit").Uint("corr", correlation_id);
}

void Correlator::OnNvtxPush(std::string_view message) {
  if (Recording()) RecordLine("nvtx_push").Str("message", message);
  if (GetConfig().enable_nvtx) ContextNvtxPush(message);
}

void Correlator::OnNvtxPop() {
  if (Recording()) RecordLine("nvtx_pop");
  if (GetConfig().enable_nvtx) ContextNvtxPop();
}

void Correlator::OnGraphNodeCaptured(uint64_t capture_key, std::string_view kernel_name) {
  if (Recording()) RecordLine("graph_captured").Uint("key", capture_key).Str("name", kernel_name);
  std::vector<std::pair<int, std::vector<std::string>>> paths;
  CaptureGraphPaths(kernel_name, &paths);
  if (paths.empty()) return;
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  graph_paths_[capture_key] = std::move(paths);
  auto [name_it, added] = graph_key_names_.emplace(capture_key, std::string(kernel_name));
  if (added) graph_keys_by_name_[name_it->second].push_back(capture_key);
}

void Correlator::OnGraphNodeReleased(uint64_t capture_key) {
  if (Recording()) RecordLine("graph_released").Uint("key", capture_key);
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  graph_paths_.erase(capture_key);
  auto name = graph_key_names_.find(capture_key);
  if (name == graph_key_names_.end()) return;
  auto keys = graph_keys_by_name_.find(name->second);
  if (keys != graph_keys_by_name_.end()) {
    std::erase(keys->second, capture_key);
    if (keys->second.empty()) graph_keys_by_name_.erase(keys);
  }
  graph_key_names_.erase(name);
}

const std::vector<std::string>* Correlator::CapturedPathLocked(uint64_t capture_key,
                                                               int session_id) const {
  auto it = graph_paths_.find(capture_key);
  if (it == graph_paths_.end()) return nullptr;
  for (const auto& [session, names] : it->second) {
    if (session == session_id) return &names;
  }
  return nullptr;
}

const std::vector<std::string>* Correlator::GraphPathLocked(const KernelRecord& record,
                                                            int session_id) const {
  if (record.graph_node_id != 0) {
    if (const auto* path = CapturedPathLocked(record.graph_node_id, session_id)) return path;
  }
  // Some CUPTI versions name, in a replayed kernel's record, a node of the exec that no
  // resource callback reported (the exec's own copy of the graph). The captured node of the
  // same kernel stands for it when every capture of that kernel has the same path.
  auto keys = graph_keys_by_name_.find(std::string(record.name));
  if (keys == graph_keys_by_name_.end()) return nullptr;
  const std::vector<std::string>* found = nullptr;
  for (uint64_t key : keys->second) {
    const auto* path = CapturedPathLocked(key, session_id);
    if (path == nullptr) continue;
    if (found != nullptr && *found != *path) return nullptr;  // ambiguous: the launch context
    found = path;
  }
  return found;
}

void Correlator::Apply(const CaptureTarget* targets, size_t count, const KernelRecord& record) {
  for (size_t i = 0; i < count; ++i) {
    const CaptureTarget& target = targets[i];
    if (record.graph_id == 0) {
      target.data->AddKernel(target.node, record, !target.name_known);
      continue;
    }
    // A replayed graph kernel: <launch path>/<captured_at>/<capture path> when known.
    {
      std::lock_guard<ForkGuardedMutex> lock(mutex_);
      if (const std::vector<std::string>* path = GraphPathLocked(record, target.session_id)) {
        std::vector<std::string_view> names{kCapturedAt};
        names.insert(names.end(), path->begin(), path->end());
        NodeRef node = target.data->Descend(target.node, names);
        target.data->AddKernel(node, record, false);
        continue;
      }
    }
    if (!g_graph_fallback_warned.exchange(true)) {
      std::fprintf(stderr,
                   "[proton] warning: a CUDA graph captured before profiling started was "
                   "launched; its kernels are attributed to the launch context\n");
    }
    target.data->AddKernel(target.node, record, true);
  }
}

void Correlator::OnKernelRecord(const KernelRecord& record) {
  if (Recording()) {
    RecordLine("record")
        .Uint("corr", record.correlation_id)
        .Uint("start", record.start_ns)
        .Uint("end", record.end_ns)
        .Uint("device", record.device_id)
        .Uint("stream", record.stream_id)
        .Str("name", record.name)
        .Uint("graph", record.graph_id)
        .Uint("node", record.graph_node_id);
  }
  bool known =
      ConsumeRecord(record.correlation_id, [&](const CaptureTarget* targets, size_t count) {
        if (record.start_ns >= record.end_ns) {
          std::lock_guard<ForkGuardedMutex> lock(mutex_);
          ++counters_.incomplete;
        } else {
          Apply(targets, count, record);
        }
      });
  if (!known) {
    std::lock_guard<ForkGuardedMutex> lock(mutex_);
    ++counters_.unknown;
  }
}

template <typename ApplyFn>
bool Correlator::ConsumeRecord(uint64_t id, ApplyFn&& apply) {
  if (Slot* ring = ring_ptr_.load(std::memory_order_acquire);
      ring != nullptr && id != 0 && id != kBusy) {
    Slot& slot = ring[id & (kRingSize - 1)];
    uint64_t key = id;
    while (!slot.key.compare_exchange_weak(key, kBusy, std::memory_order_acquire)) {
      if (key != kBusy && key != id) break;  // not in the ring: maybe in the map
      key = id;                              // another thread holds the slot for a moment
    }
    if (key == id) {
      PROTON_DCHECK(slot.count <= kInlineTargets) << "slot of launch " << id;
      // Applied while the slot is held: its data references stay alive meanwhile.
      // remaining 0: unknown count; the slot stays until reclaimed or the next flush.
      bool last = slot.remaining == 1;
      if (slot.remaining > 1) --slot.remaining;
      apply(slot.targets, static_cast<size_t>(slot.count));
      ReleaseSlot(slot, last ? 0 : id);
      return true;
    }
  }
  std::vector<CaptureTarget> targets;
  std::vector<std::shared_ptr<Data>> owners;  // alive while applied outside the lock
  bool last = false;
  {
    std::lock_guard<ForkGuardedMutex> lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return false;
    Entry& entry = it->second;
    last = entry.remaining == 1;
    if (entry.remaining > 1) --entry.remaining;
    // The last record's entry stays until it is applied: its phase is not complete before.
    targets = entry.targets;
    owners = entry.owners;
  }
  apply(targets.data(), targets.size());
  if (last) {
    std::lock_guard<ForkGuardedMutex> lock(mutex_);
    entries_.erase(id);
  }
  return true;
}

void Correlator::OnPcSamples(uint64_t correlation_id, std::span<const PcSample> samples) {
  if (Recording()) {
    // One line per batch (one expected record): sample k as f<k>, s<k> and c<k>, the counters
    // comma-separated in the order of kPcSamplingNames.
    RecordLine line("pc_samples");
    line.Uint("corr", correlation_id).Uint("n", samples.size());
    for (size_t k = 0; k < samples.size(); ++k) {
      std::string counters;
      for (uint64_t c : samples[k].counters) {
        if (!counters.empty()) counters += ',';
        counters += std::to_string(c);
      }
      std::string index = std::to_string(k);
      line.Str("f" + index, samples[k].function)
          .Str("s" + index, samples[k].source)
          .Str("c" + index, counters);
    }
  }
  bool known = ConsumeRecord(correlation_id, [&](const CaptureTarget* targets, size_t count) {
    ApplyPcSamples(targets, count, samples);
  });
  if (!known && !samples.empty()) {
    std::lock_guard<ForkGuardedMutex> lock(mutex_);
    ++counters_.pc_samples_unattributed;
  }
}

void Correlator::ApplyPcSamples(const CaptureTarget* targets, size_t count,
                                std::span<const PcSample> samples) {
  for (size_t i = 0; i < count; ++i) {
    const CaptureTarget& target = targets[i];
    if (target.data->is_trace()) continue;  // trace data has no place for counters
    auto* tree = static_cast<TreeData*>(target.data);
    for (const PcSample& sample : samples) {
      NodeRef node = target.node;
      // As the reference: below an op (or an unnamed launch) the kernel's function is a child.
      if ((target.in_op || !target.name_known) && !sample.function.empty()) {
        node = tree->Child(node, sample.function);
      }
      if (!sample.source.empty()) node = tree->Child(node, sample.source);
      tree->AddPcSampling(node, sample.counters);
    }
  }
}

void Correlator::CollectDataInFlight(std::unordered_map<const Data*, size_t>* out) {
  // A launch that captures after this bump refreshes its session list, and so captures into
  // the current phase (sealed phases were sealed before this call). One that read an older
  // epoch took its slot, or made its map entry, before that read (TakeSlot, LaunchEnterSlow):
  // the reads below see it.
  // The bump and the key loads are seq_cst, like the launch's slot store and epoch load.
  g_hot.session_epoch.fetch_add(1, std::memory_order_seq_cst);
  if (Slot* ring = ring_ptr_.load(std::memory_order_acquire); ring != nullptr) {
    for (size_t i = 0; i < kRingSize; ++i) {
      Slot& slot = ring[i];
      if (slot.key.load(std::memory_order_seq_cst) == 0) continue;
      uint64_t key = HoldUnlessFree(slot);
      if (key == 0) continue;
      for (uint32_t t = 0; t < slot.count; ++t) ++(*out)[slot.targets[t].data];
      ReleaseSlot(slot, key);
    }
  }
  std::vector<uint64_t> capturing;
  {
    std::lock_guard<ForkGuardedMutex> lock(mutex_);
    for (const auto& [id, entry] : entries_) {
      if (entry.capturing) capturing.push_back(id);
      for (const CaptureTarget& target : entry.targets) ++(*out)[target.data];
    }
  }
  // Captures that began before the bump: each finishes in a moment (later ones capture into
  // the current phase and are not waited for).
  for (uint64_t id : capturing) {
    while (true) {
      {
        std::lock_guard<ForkGuardedMutex> lock(mutex_);
        auto it = entries_.find(id);
        if (it == entries_.end() || !it->second.capturing) {
          if (it != entries_.end()) {
            for (const CaptureTarget& target : it->second.targets) ++(*out)[target.data];
          }
          break;
        }
      }
      std::this_thread::yield();
    }
  }
}

void Correlator::OnBufferCompleted(uint64_t max_correlation_id) {
  if (Recording()) RecordLine("buffer").Uint("max", max_correlation_id);
  uint64_t previous = max_completed_.load(std::memory_order_acquire);
  AtomicMax(max_completed_, max_correlation_id);
  // Graph launches with an unknown record count are normally freed after the next flush. A
  // program that replays such graphs without ever flushing must not grow without bound:
  // past kMaxUnknownCountEntries, free those already covered by an earlier completed buffer.
  constexpr size_t kMaxUnknownCountEntries = 10000;
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  if (unknown_count_ids_.size() <= kMaxUnknownCountEntries) return;
  std::erase_if(unknown_count_ids_, [&](uint64_t id) {
    if (id > previous) return false;
    auto it = entries_.find(id);
    if (it != entries_.end() && it->second.remaining == 0) entries_.erase(it);
    return true;
  });
}

void Correlator::OnRecordsLost(RecordLoss why, uint64_t count) {
  if (Recording()) RecordLine("lost").Int("why", static_cast<int>(why)).Uint("count", count);
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  switch (why) {
    case RecordLoss::kDropped: counters_.dropped += count; break;
    case RecordLoss::kIncomplete: counters_.incomplete += count; break;
    case RecordLoss::kUnknownCorrelation: counters_.unknown += count; break;
  }
}

void Correlator::AfterFlush() {
  if (unknown_count_in_ring_.exchange(false, std::memory_order_relaxed)) FreeUnknownCountSlots();
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  for (uint64_t id : unknown_count_ids_) {
    auto it = entries_.find(id);
    if (it != entries_.end() && it->second.remaining == 0) entries_.erase(it);
  }
  unknown_count_ids_.clear();
}

void Correlator::FreeUnknownCountSlots() {
  Slot* ring = ring_ptr_.load(std::memory_order_acquire);
  if (ring == nullptr) return;
  for (size_t i = 0; i < kRingSize; ++i) {
    Slot& slot = ring[i];
    uint64_t key = slot.key.load(std::memory_order_acquire);
    if (key == 0 || key == kBusy) continue;
    if (!slot.key.compare_exchange_strong(key, kBusy, std::memory_order_acquire)) continue;
    ReleaseSlot(slot, slot.remaining == 0 ? 0 : key);
  }
}

void Correlator::ClearRing(bool after_fork) {
  Slot* ring = ring_ptr_.load(std::memory_order_acquire);
  if (ring == nullptr) return;
  for (size_t i = 0; i < kRingSize; ++i) {
    Slot& slot = ring[i];
    // In a forked child the thread that held a slot did not survive the fork: take it.
    if (!after_fork) HoldUnlessFree(slot);
    slot.count = 0;  // the targets stay: nothing reads a free slot's (MakeData)
    slot.key.store(0, std::memory_order_release);
  }
}

uint64_t Correlator::HoldUnlessFree(Slot& slot) {
  uint64_t key = slot.key.load(std::memory_order_acquire);
  while (key != 0) {
    if (key == kBusy) {  // a launch or record in progress: wait for it
      key = slot.key.load(std::memory_order_acquire);
      continue;
    }
    if (slot.key.compare_exchange_weak(key, kBusy, std::memory_order_acquire)) return key;
  }
  return 0;
}

std::shared_ptr<Data> Correlator::MakeData(std::unique_ptr<Data> data) {
  return std::shared_ptr<Data>(data.release(), [](Data* retired) {
    Retired& r = RetiredData();
    std::lock_guard<ForkGuardedMutex> lock(r.mutex);
    r.data.push_back(retired);
  });
}

size_t Correlator::retired_data() {
  Retired& r = RetiredData();
  std::lock_guard<ForkGuardedMutex> lock(r.mutex);
  return r.data.size();
}

void Correlator::FreeRetiredData() { DeleteRetired(/*ring_clear=*/false); }

void Correlator::DeleteRetired(bool ring_clear) {
  std::vector<Data*> retired;
  {
    Retired& r = RetiredData();
    std::lock_guard<ForkGuardedMutex> lock(r.mutex);
    retired.swap(r.data);
  }
  if (retired.empty()) return;
  auto is_retired = [&](const Data* data) {
    return std::find(retired.begin(), retired.end(), data) != retired.end();
  };
  // Free slots may still point at retired data, but nothing reads a free slot's targets. Slots
  // taken after the data retired cannot refer to it.
  Slot* ring = ring_clear ? nullptr : ring_ptr_.load(std::memory_order_acquire);
  if (ring != nullptr) {
    for (size_t i = 0; i < kRingSize; ++i) {
      Slot& slot = ring[i];
      uint64_t key = HoldUnlessFree(slot);
      if (key == 0) continue;
      uint32_t kept = 0;
      for (uint32_t t = 0; t < slot.count && t < kInlineTargets; ++t) {
        if (!is_retired(slot.targets[t].data)) slot.targets[kept++] = slot.targets[t];
      }
      slot.count = kept;  // 0: its records still arrive, are counted, and go nowhere
      ReleaseSlot(slot, key);
    }
  }
  for (Data* data : retired) delete data;
}

void Correlator::Reset(bool after_fork) {
  // Without mutex_: a record being applied holds its slot and may take mutex_ (graph paths).
  ClearRing(after_fork);
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  entries_.clear();
  unknown_count_ids_.clear();
  graph_paths_.clear();
  graph_key_names_.clear();
  graph_keys_by_name_.clear();
  counters_ = LossCounters{};
  max_completed_.store(0);
  DeleteRetired(/*ring_clear=*/true);
}

LossCounters Correlator::counters() {
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  return counters_;
}

std::string Correlator::LossWarning() {
  LossCounters c = counters();
  uint64_t unexpected =
      c.unknown > c.uncorrelated_launches ? c.unknown - c.uncorrelated_launches : 0;
  uint64_t total = c.dropped + c.incomplete + unexpected;
  if (total == 0) return "";
  std::string parts;
  auto add = [&](uint64_t n, const std::string& what) {
    if (n == 0) return;
    if (!parts.empty()) parts += "; ";
    parts += std::to_string(n) + " " + what;
  };
  add(c.dropped,
      "dropped because the activity buffers overflowed; raise PROTON_PROFILE_BUFFER_SIZE");
  add(c.incomplete, "incomplete (start >= end)");
  add(unexpected, "with an unknown correlation id");
  return "[proton] warning: " + std::to_string(total) + " kernel records were lost (" + parts + ")";
}

size_t Correlator::pending_entries() {
  size_t in_ring = 0;
  if (Slot* ring = ring_ptr_.load(std::memory_order_acquire)) {
    for (size_t i = 0; i < kRingSize; ++i) {
      uint64_t key = ring[i].key.load(std::memory_order_acquire);
      if (key != 0 && key != kBusy) ++in_ring;
    }
  }
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  return in_ring + entries_.size();
}

size_t Correlator::heap_entries() {
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  return entries_.size();
}

size_t Correlator::captured_graph_nodes() {
  std::lock_guard<ForkGuardedMutex> lock(mutex_);
  return graph_paths_.size();
}

}  // namespace proton
