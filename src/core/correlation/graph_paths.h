// CUDA graph kernels (profiler.md §3.8): the capture path of every captured graph node, per
// session, and the attribution of a replayed kernel's record to
// <launch path>/<captured_at>/<capture path>. Capture and release run on application threads
// (any thread for release); attribution on the thread that applies records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/backend/backend.h"
#include "core/context/thread_context.h"
#include "core/fork_guard.h"

namespace proton {

class GraphPaths {
 public:
  using SessionPaths = std::vector<std::pair<int, std::vector<std::string>>>;

  // A node was captured: `paths` (per session, from CaptureGraphPaths) is where its kernel lands.
  void Captured(uint64_t capture_key, std::string_view kernel_name, SessionPaths paths)
      PROTON_EXCLUDES(mutex_);
  void Released(uint64_t capture_key) PROTON_EXCLUDES(mutex_);
  // Adds a replayed graph kernel's record (graph_id != 0) to `target`: below its capture path
  // when known, else at the launch context (warned once per process).
  void AddReplayedKernel(const CaptureTarget& target, const KernelRecord& record)
      PROTON_EXCLUDES(mutex_);
  void Clear() PROTON_EXCLUDES(mutex_);
  size_t size() PROTON_EXCLUDES(mutex_);  // tests: graph capture paths alive

 private:
  // The capture path (in `session_id`) of the graph node a replayed kernel's record names.
  const std::vector<std::string>* GraphPathLocked(const KernelRecord& record, int session_id) const
      PROTON_REQUIRES(mutex_);
  const std::vector<std::string>* CapturedPathLocked(uint64_t capture_key, int session_id) const
      PROTON_REQUIRES(mutex_);
  // Takes the lock: the node is descended while the path is held. False: no path known.
  bool AddBelowCapturePath(const CaptureTarget& target, const KernelRecord& record)
      PROTON_EXCLUDES(mutex_);

  ForkGuardedMutex mutex_{LockRank::kCorrelator};
  std::unordered_map<uint64_t, SessionPaths> paths_ PROTON_GUARDED_BY(mutex_);
  std::unordered_map<uint64_t, std::string> key_names_
      PROTON_GUARDED_BY(mutex_);  // capture key -> kernel name
  std::unordered_map<std::string, std::vector<uint64_t>> keys_by_name_ PROTON_GUARDED_BY(mutex_);
};

}  // namespace proton
