// CUDA graph bookkeeping (profiler.md §5.10): which graph nodes exist, which captured kernel
// node ("origin") each node was cloned from, and how many kernel nodes each graph exec runs.
// Instantiation clones nodes, and PyTorch destroys the captured graph right after
// instantiating it, so a capture path is kept per origin with a count of the live nodes that
// refer to it; when the last one goes, the origin is released (the core frees its path).
// Pure bookkeeping: the CUPTI ids are computed by the caller, so tests drive it directly.
// Threads: resource callbacks on application threads, CaptureOrigin on the buffer thread; one
// mutex guards everything and is never held while calling CUPTI or the sink.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "util/thread_annotations.h"

namespace proton::cupti {

class GraphTracker {
 public:
  // A node was created in `graph_id`. `captured` is true when the core recorded a capture path
  // for it (a kernel node created inside a launch during stream capture).
  void NodeCreated(uint64_t node_id, uint32_t graph_id, bool is_kernel, bool captured);
  // `node_id` is a clone of `original_id` (cuGraphClone or instantiation). `exec_id` is the
  // graph exec it belongs to, 0 when none. Works whether or not NodeCreated came first.
  void NodeCloned(uint64_t node_id, uint64_t original_id, uint32_t graph_id, uint32_t exec_id,
                  bool is_kernel);
  // The destroy events. They return the captured origins whose last node went away.
  // `horizon` > 0: the highest correlation id submitted so far. Records of launches up to it
  // may still be on their way (under the `proton` command a program destroys its graphs
  // before the exit's flush delivers their records), so the nodes are only retired: they keep
  // naming their origin until ReleaseRetired.
  std::vector<uint64_t> NodeDestroyed(uint64_t node_id, uint64_t horizon = 0);
  std::vector<uint64_t> GraphDestroyed(uint32_t graph_id, uint64_t horizon = 0);
  std::vector<uint64_t> ExecDestroyed(uint32_t exec_id, uint64_t horizon = 0);
  // Frees retired nodes whose horizon is at most `completed` (the records up to it arrived);
  // returns the captured origins whose last node went away.
  std::vector<uint64_t> ReleaseRetired(uint64_t completed);
  size_t retired_count() const;
  // An exec was instantiated from `source_graph_id`.
  void ExecCreated(uint32_t exec_id, uint32_t source_graph_id);

  struct ExecInfo {
    bool known = false;         // instantiated while we were subscribed
    uint32_t kernel_nodes = 0;  // kernel records one launch produces
  };
  ExecInfo LookupExec(uint32_t exec_id) const;

  // The captured origin of a node (the id the core keyed its capture path by), 0 if none.
  uint64_t CaptureOrigin(uint64_t node_id) const;

  // Drops everything (at Stop); returns the captured origins that were live.
  std::vector<uint64_t> Clear();

  size_t node_count() const;
  size_t origin_count() const;
  size_t exec_count() const;

 private:
  struct Node {
    uint64_t origin = 0;
    uint32_t graph_id = 0;
    uint32_t exec_id = 0;
    bool is_kernel = false;
    uint64_t retired_horizon = 0;  // > 0: destroyed, kept until ReleaseRetired
  };
  struct Origin {
    uint32_t refs = 0;
    bool captured = false;
  };
  struct Exec {
    uint32_t source_graph_id = 0;
    uint32_t kernel_nodes = 0;
    bool created = false;
    std::unordered_set<uint64_t> nodes;
  };
  void Unref(uint64_t origin, std::vector<uint64_t>* released) PROTON_REQUIRES(mutex_);
  void EraseNode(uint64_t node_id, std::vector<uint64_t>* released, uint64_t horizon = 0)
      PROTON_REQUIRES(mutex_);
  uint32_t CountKernels(const std::unordered_set<uint64_t>& nodes) const PROTON_REQUIRES(mutex_);

  mutable Mutex mutex_;
  std::unordered_map<uint64_t, Node> nodes_ PROTON_GUARDED_BY(mutex_);
  std::unordered_map<uint64_t, Origin> origins_ PROTON_GUARDED_BY(mutex_);
  std::unordered_map<uint32_t, std::unordered_set<uint64_t>> graphs_ PROTON_GUARDED_BY(mutex_);
  std::unordered_map<uint32_t, Exec> execs_ PROTON_GUARDED_BY(mutex_);
  std::vector<uint64_t> retired_ PROTON_GUARDED_BY(mutex_);  // ids of retired nodes
};

}  // namespace proton::cupti
