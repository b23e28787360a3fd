// The live view's model (viewer.md §11.14). Every part read is folded in and freed: per
// process (a "stream": one rank's parts) and phase the part's total GPU time, and per phase
// the time of every frame summed over the streams, on one union of all parts' frames
// (merge_union.h). A phase's frame times are kept until the view has shown the phase, then
// added to the run's; so memory follows the union and the phases on screen, never the parts:
// 64 ranks of 20,000-frame parts cost one union and a few arrays of 20,000 doubles.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "viewer/common/tree_names.h"
#include "viewer/merge/merge_union.h"

namespace proton::viewer {

struct LivePhase {
  std::vector<double> totals;  // per stream: the part's ROOT time in ns, NaN without a part
  // Per union node, summed over the streams (may be shorter than the union: 0 beyond);
  // freed once a later phase is shown.
  std::vector<double> frames;
  size_t parts = 0;
  bool shown = false;
};

// A 64-bit hash of `tree`'s frames (each node's parent, type and name, in order): equal for
// equally shaped trees. Computed on the loading threads, so the main thread compares one
// number instead of looking up 20,000 names.
uint64_t ShapeOf(const ProfileTree& tree);

class LiveTotals {
 public:
  // The index of the stream `prefix` (a new one is added at the end).
  size_t Stream(const std::string& prefix);
  const std::vector<std::string>& streams() const { return streams_; }

  // Folds in one part of `stream`: `tree` must be prepared (PrepareProfile) with its duplicate
  // siblings merged. Its frames are its `time (ns)` inclusive sums; a tree without that
  // metric adds 0. A part of a phase already shown goes to the run's frames directly.
  // `shape` is ShapeOf(tree): a part shaped like the stream's previous one (a training loop's
  // steps) reuses its union ids instead of looking every frame up again.
  void AddPart(size_t stream, int64_t phase, const ProfileTree& tree, uint64_t shape);
  // Marks `phase` shown: its frame times join the run's ("the run so far" is every phase up
  // to the one shown, and late parts of shown phases); the phase shown before it frees its own.
  void MarkShown(int64_t phase);
  int64_t last_shown() const { return last_shown_; }

  const std::map<int64_t, LivePhase>& phases() const { return phases_; }
  const std::vector<double>& run_frames() const { return run_frames_; }
  // The highest phase read of each stream (-1 before its first part).
  const std::vector<int64_t>& last_phase() const { return last_phase_; }
  const MergeUnion& frames() const { return union_; }
  // Per union node: whether some part had a child under it (a node without is a kernel).
  bool HasChildren(NodeId u) const { return u < has_children_.size() && has_children_[u]; }
  size_t parts_read() const { return parts_read_; }

 private:
  // The union ids of each stream's last mapped part, and that part's shape.
  struct LastShape {
    uint64_t shape = 0;
    std::vector<NodeId> union_id;
  };
  const std::vector<NodeId>& UnionIds(size_t stream, const ProfileTree& tree, uint64_t shape);

  std::vector<std::string> streams_;
  std::vector<LastShape> last_shape_;
  std::map<std::string, size_t> stream_index_;
  std::vector<int64_t> last_phase_;
  std::map<int64_t, LivePhase> phases_;
  std::vector<double> run_frames_;
  MergeUnion union_;
  std::vector<uint8_t> has_children_;
  size_t parts_read_ = 0;
  int64_t last_shown_ = -1;
};

}  // namespace proton::viewer
