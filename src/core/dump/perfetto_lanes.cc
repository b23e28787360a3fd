// Lanes of a Perfetto trace; see perfetto_lanes.h.
#include "core/dump/perfetto_lanes.h"

#include <algorithm>
#include <numeric>

namespace proton {

uint32_t PerfettoLanes::Add(const LaneKey& key) {
  const auto kind = static_cast<size_t>(key.kind);
  if (last_number_[kind] != UINT32_MAX && key == last_key_[kind]) return last_number_[kind];
  auto [it, inserted] = provisional_.try_emplace(key, static_cast<uint32_t>(added_.size()));
  if (inserted) added_.push_back(key);
  last_key_[kind] = key;
  last_number_[kind] = it->second;
  return it->second;
}

void PerfettoLanes::Finish() {
  std::vector<uint32_t> order(added_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const LaneKey& x = added_[a];
    const LaneKey& y = added_[b];
    if (x.kind != y.kind) return x.kind < y.kind;
    if (x.device != y.device) return x.device < y.device;
    return x.id < y.id;
  });
  final_of_.assign(added_.size(), 0);
  ordered_.clear();
  bool seen_device = false;
  uint32_t first_device = 0;
  for (uint32_t provisional : order) {
    const LaneKey& key = added_[provisional];
    final_of_[provisional] = static_cast<uint32_t>(ordered_.size());
    ordered_.push_back(key);
    if (key.kind == LaneKind::kCpu) continue;
    if (seen_device && key.device != first_device) several_devices_ = true;
    if (!seen_device) first_device = key.device;
    seen_device = true;
  }
  provisional_.clear();  // no more Add: free the map
}

std::string PerfettoLanes::Name(uint32_t final_index) const {
  const LaneKey& key = ordered_[final_index];
  std::string id = std::to_string(key.id);
  if (key.kind == LaneKind::kCpu) return "CPU Thread " + id;
  // One device: main's names. Several: the device after "GPU" in both kinds.
  std::string stream =
      several_devices_ ? "GPU " + std::to_string(key.device) + " Stream " + id : "Stream " + id;
  if (key.kind == LaneKind::kGraph) return "Graph: " + stream;
  return several_devices_ ? stream : "GPU " + stream;
}

}  // namespace proton
