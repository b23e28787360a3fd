// Correlator; see correlator.h.
#include "core/correlation/correlator.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/config/config.h"
#include "core/correlation/pc_sample_attribution.h"
#include "core/correlation/recording_hooks.h"
#include "core/correlation/retired_data.h"
#include "core/hot_flags.h"
#include "core/record/recorder.h"
#include "util/check.h"

namespace proton {
namespace {

void AtomicMax(std::atomic<uint64_t>& a, uint64_t v) {
  uint64_t cur = a.load(std::memory_order_relaxed);
  while (cur < v && !a.compare_exchange_weak(cur, v, std::memory_order_acq_rel)) {
  }
}

// What a launch does besides capture, only while some session needs it (g_hot.launch_extras):
// the recording's line, and the stamp that trace data's flows start from, which the launch
// keeps with its targets. Out of line, so that the launch path of other sessions carries only
// the one flag test.
[[gnu::noinline]] LaunchStamp LaunchExtras(uint64_t correlation_id, std::string_view kernel_name,
                                           uint32_t expected_records) {
  if (Recording()) RecordLaunchEnter(correlation_id, kernel_name, expected_records);
  if (g_hot.launch_extras.load(std::memory_order_relaxed) & kLaunchExtraTrace) {
    return StampLaunch(correlation_id);
  }
  return LaunchStamp{};
}

}  // namespace

void Correlator::OnLaunchEnter(uint64_t correlation_id, std::string_view kernel_name,
                               uint32_t expected_records) {
  LaunchStamp stamp;
  if (g_hot.launch_extras.load(std::memory_order_relaxed) != 0) [[unlikely]] {
    stamp = LaunchExtras(correlation_id, kernel_name, expected_records);
  }
  if (!LaunchRing::Fits(correlation_id)) {
    LaunchEnterSlow(correlation_id, kernel_name, expected_records, stamp);
    return;
  }
  LaunchRing::Slot* slot = ring_.TakeForLaunch(correlation_id);
  if (slot == nullptr) {
    LaunchEnterSlow(correlation_id, kernel_name, expected_records, stamp);  // ring wrapped
    return;
  }
  if (expected_records == 0) ring_.NoteUnknownCount();
  // The slot is ours: capture straight into it (no record for this id exists yet).
  size_t count = CaptureLaunch(kernel_name, slot->targets, LaunchRing::kInlineTargets);
  if (count == 0 || count > LaunchRing::kInlineTargets) {
    LaunchRing::Release(*slot, 0);
    if (count == 0) {
      losses_.AddUncorrelatedLaunch();
      return;
    }
    LaunchEnterSlow(correlation_id, kernel_name, expected_records, stamp);
    return;
  }
  if (stamp.correlation_id != 0) slot->stamp = stamp;
  slot->count = static_cast<uint32_t>(count);
  slot->remaining = expected_records;
  LaunchRing::Release(*slot, correlation_id);
}

void Correlator::LaunchEnterSlow(uint64_t correlation_id, std::string_view kernel_name,
                                 uint32_t expected_records, const LaunchStamp& stamp) {
  map_.BeginCapture(correlation_id, expected_records);
  std::vector<CaptureTarget> targets(LaunchRing::kInlineTargets);
  size_t count = CaptureLaunch(kernel_name, targets.data(), targets.size());
  if (count > targets.size()) {
    targets.resize(count);
    count = CaptureLaunch(kernel_name, targets.data(), targets.size());
  }
  targets.resize(std::min(count, targets.size()));
  if (!map_.EndCapture(correlation_id, std::move(targets), expected_records, stamp)) {
    losses_.AddUncorrelatedLaunch();
  }
}

void Correlator::OnLaunchExit(uint64_t correlation_id) {
  // The backend tracks the highest submitted id for its flush loop (§5.6); nothing to keep.
  if (Recording()) RecordLaunchExit(correlation_id);
}

void Correlator::OnNvtxPush(std::string_view message) {
  if (Recording()) RecordNvtxPush(message);
  if (GetConfig().enable_nvtx) ContextNvtxPush(message);
}

void Correlator::OnNvtxPop() {
  if (Recording()) RecordNvtxPop();
  if (GetConfig().enable_nvtx) ContextNvtxPop();
}

void Correlator::OnGraphNodeCaptured(uint64_t capture_key, std::string_view kernel_name) {
  if (Recording()) RecordGraphCaptured(capture_key, kernel_name);
  GraphPaths::SessionPaths paths;
  CaptureGraphPaths(kernel_name, &paths);
  if (paths.empty()) return;
  graphs_.Captured(capture_key, kernel_name, std::move(paths));
}

void Correlator::OnGraphNodeReleased(uint64_t capture_key) {
  if (Recording()) RecordGraphReleased(capture_key);
  graphs_.Released(capture_key);
}

void Correlator::Apply(const CaptureTarget* targets, size_t count, const KernelRecord& in,
                       const LaunchStamp& stamp) {
  KernelRecord record = in;
  if (stamp.correlation_id != 0) {
    record.launch_ns = stamp.ns;
    record.launch_thread = stamp.thread;
  }
  for (size_t i = 0; i < count; ++i) {
    const CaptureTarget& target = targets[i];
    if (record.graph_id == 0) {
      target.data->AddKernel(target.node, record, !target.name_known);
    } else {
      graphs_.AddReplayedKernel(target, record);
    }
  }
}

void Correlator::OnKernelRecord(const KernelRecord& record) {
  if (Recording()) RecordKernel(record);
  bool known = ConsumeRecord(record.correlation_id, [&](const CaptureTarget* targets, size_t count,
                                                        const LaunchStamp& stamp) {
    if (record.start_ns >= record.end_ns) {
      losses_.AddIncomplete();
    } else {
      Apply(targets, count, record, stamp);
    }
  });
  if (!known) losses_.AddUnknown();
}

template <typename ApplyFn>
bool Correlator::ConsumeRecord(uint64_t id, ApplyFn&& apply) {
  return ring_.Consume(id, apply) || map_.Consume(id, apply);
}

void Correlator::OnPcSamples(uint64_t correlation_id, std::span<const PcSample> samples) {
  if (Recording()) RecordPcSamples(correlation_id, samples);
  bool known = ConsumeRecord(correlation_id, [&](const CaptureTarget* targets, size_t count,
                                                 const LaunchStamp& /*stamp*/) {
    AttributePcSamples(targets, count, samples);
  });
  if (!known && !samples.empty()) losses_.AddPcSamplesUnattributed();
}

void Correlator::CollectDataInFlight(std::unordered_map<const Data*, size_t>* out) {
  // A launch that captures after this bump refreshes its session list, and so captures into
  // the current phase (sealed phases were sealed before this call). One that read an older
  // epoch took its slot, or made its map entry, before that read (LaunchRing::TakeForLaunch,
  // LaunchMap::BeginCapture): the walks below see it.
  // The bump and the key loads are seq_cst, like the launch's slot store and epoch load.
  g_hot.session_epoch.fetch_add(1, std::memory_order_seq_cst);
  ring_.CollectData(out);
  map_.CollectData(out);
}

void Correlator::OnBufferCompleted(uint64_t max_correlation_id) {
  if (Recording()) RecordBufferCompleted(max_correlation_id);
  uint64_t previous = max_completed_.load(std::memory_order_acquire);
  AtomicMax(max_completed_, max_correlation_id);
  map_.TrimUnknownCount(previous);
}

void Correlator::OnRecordsLost(RecordLoss why, uint64_t count) {
  if (Recording()) RecordRecordsLost(why, count);
  losses_.AddLost(why, count);
}

void Correlator::AfterFlush() {
  ring_.AfterFlush();
  map_.AfterFlush();
}

std::shared_ptr<Data> Correlator::MakeData(std::unique_ptr<Data> data) {
  return std::shared_ptr<Data>(data.release(), [](Data* retired) { RetireData(retired); });
}

size_t Correlator::retired_data() { return RetiredDataCount(); }

void Correlator::FreeRetiredData() { DeleteRetired(/*ring_clear=*/false); }

void Correlator::DeleteRetired(bool ring_clear) {
  std::vector<Data*> retired = TakeRetiredData();
  if (retired.empty()) return;
  // Free slots may still point at retired data, but nothing reads a free slot's targets. Slots
  // taken after the data retired cannot refer to it.
  if (!ring_clear) {
    ring_.DropTargets([&](const Data* data) {
      return std::find(retired.begin(), retired.end(), data) != retired.end();
    });
  }
  for (Data* data : retired) delete data;
}

void Correlator::Reset(bool after_fork) {
  // The ring first, without other locks: a record being applied holds its slot and may take
  // the graph paths' lock.
  ring_.Clear(after_fork);
  map_.Clear();
  graphs_.Clear();
  losses_.Clear();
  max_completed_.store(0);
  DeleteRetired(/*ring_clear=*/true);
}

LossCounters Correlator::counters() { return losses_.Snapshot(); }

std::string Correlator::LossWarning() { return losses_.Warning(); }

size_t Correlator::pending_entries() { return ring_.Occupied() + map_.size(); }

size_t Correlator::heap_entries() { return map_.size(); }

size_t Correlator::captured_graph_nodes() { return graphs_.size(); }

}  // namespace proton
