// The data of one session: a context tree plus what is recorded on it. TreeData aggregates
// metrics per node; TraceData keeps one event per kernel. All public methods lock the data's
// mutex (profiler.md §5.5 rule 6: lock per tree when applying records).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend/backend.h"
#include "core/data/context_tree.h"
#include "proton/proton.h"
#include "util/thread_annotations.h"

namespace proton {

// A node of one data object, valid while the data's generation is unchanged (Clear bumps it).
struct NodeRef {
  uint32_t node = kNoNode;
  uint32_t gen = 0;
  bool valid() const { return node != kNoNode; }
};

// A generation no data object of this process had before: a ref taken in one data object (one
// phase) is never mistaken for a node of another, or of the same one after Clear.
uint32_t NextDataGeneration();

// Process-wide "this process recorded something" flag (a node beyond ROOT or a kernel), used
// by the command-line lifecycle to decide whether a helper process writes a file.
void MarkRecorded();
bool HasRecorded();
// Forgets the flag (a forked child inherits it with the parent's sessions, which it drops).
void ResetRecorded();

// Shared by its session, the threads' context caches and in-flight correlation map entries;
// correlation ring slots hold it by plain pointer (correlator.h says why that is safe).
class Data : public std::enable_shared_from_this<Data> {
 public:
  virtual ~Data() = default;
  virtual bool is_trace() const = 0;

  NodeRef Root() const { return NodeRef{kRootNode, generation_.load(std::memory_order_acquire)}; }
  uint32_t generation() const { return generation_.load(std::memory_order_acquire); }
  // Walks (creating) `names` below `parent`. Returns an invalid ref if `parent` is stale.
  NodeRef Descend(NodeRef parent, const std::vector<std::string_view>& names)
      PROTON_EXCLUDES(mutex_);
  NodeRef Child(NodeRef parent, std::string_view name) PROTON_EXCLUDES(mutex_);
  // True when `ref` still names a node of this data (ROOT always does).
  bool IsCurrent(NodeRef ref) const {
    return ref.node == kRootNode || (ref.node != kNoNode && ref.gen == generation());
  }
  // Frame names from below ROOT down to `ref` (empty for ROOT or a stale ref).
  std::vector<std::string> PathNames(NodeRef ref) PROTON_EXCLUDES(mutex_);
  // Adds a kernel record at `node`, or first at its child named `record.name` when
  // `add_name_child`. Stale refs are dropped (the data was cleared); returns false then.
  bool AddKernel(NodeRef node, const KernelRecord& record, bool add_name_child)
      PROTON_EXCLUDES(mutex_);
  // Adds flexible metrics at `node`.
  Status AddMetrics(NodeRef node, const Metrics& metrics) PROTON_EXCLUDES(mutex_);
  // Forgets everything but ROOT; refs taken before become stale. Bumps g_hot.session_epoch,
  // so that threads renew the generation they copied.
  void Clear() PROTON_EXCLUDES(mutex_);
  // Device ids that appear in kernel metrics.
  std::set<uint32_t> DeviceIds() PROTON_EXCLUDES(mutex_);
  // Nothing was recorded: no frame below ROOT and nothing on ROOT (a phase that launched
  // nothing and opened no scope). Such a phase writes no part file (profiler.md §3.11).
  bool RecordedNothing() PROTON_EXCLUDES(mutex_);
  // For writers: run `fn` with the lock held.
  template <typename Fn>
  auto WithLock(Fn&& fn) PROTON_EXCLUDES(mutex_) {
    MutexLock lock(mutex_);
    return fn();
  }
  // Call inside WithLock. Unchecked: the analysis cannot see that WithLock's lambda runs with
  // the lock held.
  const ContextTree& tree() const PROTON_NO_THREAD_SAFETY_ANALYSIS { return tree_; }

 protected:
  virtual void AddKernelLocked(uint32_t node, const KernelRecord& record)
      PROTON_REQUIRES(mutex_) = 0;
  virtual Status AddMetricsLocked(uint32_t node, const Metrics& metrics)
      PROTON_REQUIRES(mutex_) = 0;
  virtual void ClearLocked() PROTON_REQUIRES(mutex_) = 0;
  virtual bool RootRecordedLocked() const PROTON_REQUIRES(mutex_) = 0;
  uint32_t FindOrAddLocked(uint32_t parent, std::string_view name) PROTON_REQUIRES(mutex_);

  mutable Mutex mutex_;
  ContextTree tree_ PROTON_GUARDED_BY(mutex_);
  std::set<uint32_t> devices_ PROTON_GUARDED_BY(mutex_);
  std::atomic<uint32_t> generation_{NextDataGeneration()};
};

}  // namespace proton
