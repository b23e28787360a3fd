// Data base class; see data.h.
#include "core/data/data.h"

#include "core/hot_flags.h"

namespace proton {
namespace {
std::atomic<bool> g_recorded{false};
std::atomic<uint32_t> g_next_generation{1};
}  // namespace

uint32_t NextDataGeneration() { return g_next_generation.fetch_add(1, std::memory_order_relaxed); }

void MarkRecorded() {
  if (!g_recorded.load(std::memory_order_relaxed)) g_recorded.store(true);
}
bool HasRecorded() { return g_recorded.load(); }
void ResetRecorded() { g_recorded.store(false); }

uint32_t Data::FindOrAddLocked(uint32_t parent, std::string_view name) {
  bool created = false;
  uint32_t node = tree_.FindOrAdd(parent, name, &created);
  if (created) MarkRecorded();
  return node;
}

NodeRef Data::Descend(NodeRef parent, const std::vector<std::string_view>& names) {
  MutexLock lock(mutex_);
  uint32_t gen = generation_.load(std::memory_order_relaxed);
  if (!parent.valid() || (parent.gen != gen && parent.node != kRootNode)) return NodeRef{};
  uint32_t node = parent.node;
  for (std::string_view n : names) node = FindOrAddLocked(node, n);
  return NodeRef{node, gen};
}

NodeRef Data::Child(NodeRef parent, std::string_view name) {
  MutexLock lock(mutex_);
  uint32_t gen = generation_.load(std::memory_order_relaxed);
  if (!parent.valid() || (parent.gen != gen && parent.node != kRootNode)) return NodeRef{};
  return NodeRef{FindOrAddLocked(parent.node, name), gen};
}

bool Data::AddKernel(NodeRef ref, const KernelRecord& record, bool add_name_child) {
  MutexLock lock(mutex_);
  uint32_t gen = generation_.load(std::memory_order_relaxed);
  if (!ref.valid() || (ref.gen != gen && ref.node != kRootNode)) return false;
  uint32_t node = ref.node;
  if (add_name_child) node = FindOrAddLocked(node, record.name);
  devices_.insert(record.device_id);
  MarkRecorded();
  AddKernelLocked(node, record);
  return true;
}

Status Data::AddMetrics(NodeRef ref, const Metrics& metrics) {
  MutexLock lock(mutex_);
  uint32_t gen = generation_.load(std::memory_order_relaxed);
  if (!ref.valid() || (ref.gen != gen && ref.node != kRootNode)) return Status();
  MarkRecorded();
  return AddMetricsLocked(ref.node, metrics);
}

std::vector<std::string> Data::PathNames(NodeRef ref) {
  MutexLock lock(mutex_);
  std::vector<std::string> names;
  uint32_t gen = generation_.load(std::memory_order_relaxed);
  if (!ref.valid() || (ref.gen != gen && ref.node != kRootNode)) return names;
  for (uint32_t n = ref.node; n != kRootNode && n != kNoNode; n = tree_.parent(n)) {
    names.push_back(tree_.name(n));
  }
  return std::vector<std::string>(names.rbegin(), names.rend());
}

void Data::Clear() {
  MutexLock lock(mutex_);
  tree_.Clear();
  devices_.clear();
  ClearLocked();
  generation_.store(NextDataGeneration(), std::memory_order_release);
  // Threads keep copies of the generation and check only the epoch on the launch path.
  g_hot.session_epoch.fetch_add(1, std::memory_order_acq_rel);
}

bool Data::RecordedNothing() {
  MutexLock lock(mutex_);
  return tree_.size() <= 1 && !RootRecordedLocked();
}

std::set<uint32_t> Data::DeviceIds() {
  MutexLock lock(mutex_);
  return devices_;
}

}  // namespace proton
