// See live_totals.h.
#include "viewer/live/live_totals.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string_view>

namespace proton::viewer {
namespace {

// The time column's inclusive sums, or nothing when the part has no `time (ns)`.
const std::vector<double>* TimeSums(const ProfileTree& tree) {
  const int c = tree.FindColumn("time (ns)");
  if (c < 0) return nullptr;
  const RawColumn& column = tree.columns()[c];
  if (!column.numeric()) return nullptr;
  return column.inclusive ? &column.inc : &column.own;
}

double NumberOrZero(double v) { return std::isnan(v) ? 0.0 : v; }

void AddInto(std::vector<double>& into, const std::vector<NodeId>& union_id,
             const std::vector<double>& values, size_t union_size) {
  if (into.size() < union_size) into.resize(union_size, 0.0);
  for (NodeId n = 0; n < union_id.size(); ++n) into[union_id[n]] += NumberOrZero(values[n]);
}

uint64_t Mix(uint64_t h) {  // splitmix64's finaliser
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

}  // namespace

uint64_t ShapeOf(const ProfileTree& tree) {
  const std::hash<std::string_view> hash;
  uint64_t h = Mix(tree.size());
  for (NodeId n = 0; n < tree.size(); ++n) {
    h = Mix(h ^ tree.parent(n));
    h = Mix(h ^ hash(tree.name(n)));
    h = Mix(h ^ hash(tree.type(n)));
  }
  return h;
}

const std::vector<NodeId>& LiveTotals::UnionIds(size_t stream, const ProfileTree& tree,
                                                uint64_t shape) {
  LastShape& last = last_shape_[stream];
  if (last.shape == shape && last.union_id.size() == tree.size()) return last.union_id;
  last.union_id = union_.Map(tree);
  last.shape = shape;
  has_children_.resize(union_.size(), 0);
  for (NodeId n = 1; n < tree.size(); ++n) has_children_[last.union_id[tree.parent(n)]] = 1;
  return last.union_id;
}

size_t LiveTotals::Stream(const std::string& prefix) {
  auto [it, added] = stream_index_.emplace(prefix, streams_.size());
  if (added) {
    streams_.push_back(prefix);
    last_shape_.emplace_back();
    last_phase_.push_back(-1);
    for (auto& [phase, data] : phases_) data.totals.push_back(kMissing);
  }
  return it->second;
}

void LiveTotals::AddPart(size_t stream, int64_t phase, const ProfileTree& tree, uint64_t shape) {
  LivePhase& data = phases_[phase];
  data.totals.resize(streams_.size(), kMissing);
  last_phase_[stream] = std::max(last_phase_[stream], phase);
  ++data.parts;
  ++parts_read_;
  if (tree.size() == 0) {  // a part with no profile data: it took no time
    if (std::isnan(data.totals[stream])) data.totals[stream] = 0.0;
    return;
  }
  const std::vector<NodeId>& union_id = UnionIds(stream, tree, shape);
  const std::vector<double>* times = TimeSums(tree);
  const double total = times == nullptr ? 0.0 : NumberOrZero((*times)[ProfileTree::root()]);
  // Two parts of one stream and phase (never written so, but possible by hand) add up.
  data.totals[stream] = NumberOrZero(data.totals[stream]) + total;
  if (times == nullptr) return;
  // A late part of the phase on screen joins both; of an older shown phase, the run's only.
  if (!data.shown || phase == last_shown_) AddInto(data.frames, union_id, *times, union_.size());
  if (data.shown) AddInto(run_frames_, union_id, *times, union_.size());
}

void LiveTotals::MarkShown(int64_t phase) {
  auto it = phases_.find(phase);
  if (it == phases_.end() || it->second.shown) return;
  LivePhase& data = it->second;
  data.shown = true;
  if (run_frames_.size() < data.frames.size()) run_frames_.resize(data.frames.size(), 0.0);
  for (size_t u = 0; u < data.frames.size(); ++u) run_frames_[u] += data.frames[u];
  // Only the phase on screen keeps its frames (a terminal redraws it).
  if (auto previous = phases_.find(last_shown_); previous != phases_.end() && previous != it) {
    previous->second.frames.clear();
    previous->second.frames.shrink_to_fit();
  }
  last_shown_ = phase;
}

}  // namespace proton::viewer
