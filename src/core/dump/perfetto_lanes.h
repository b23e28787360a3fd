// The lanes (tracks) of a `.perfetto_trace` (formats.md §7.3): CPU threads, then CUDA-graph
// streams, then GPU streams, each kind in ascending order; a GPU or graph lane per
// (device, stream), named with the device only when the trace's kernels ran on several.
// Lanes are collected from the events first (Add gives a provisional number), then ordered
// once (Finish), after which Final maps a provisional number to the lane's position.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace proton {

enum class LaneKind : uint8_t { kCpu, kGraph, kGpu };  // the display order

struct LaneKey {
  LaneKind kind;
  uint32_t device;  // 0 for CPU lanes
  uint64_t id;      // OS thread id or stream id
  bool operator==(const LaneKey&) const = default;
};

class PerfettoLanes {
 public:
  // The lane's provisional number (stable until Finish).
  uint32_t Add(const LaneKey& key);
  // Orders the lanes; call once, after every Add.
  void Finish();
  uint32_t Final(uint32_t provisional) const { return final_of_[provisional]; }
  size_t size() const { return ordered_.size(); }
  const LaneKey& lane(uint32_t final_index) const { return ordered_[final_index]; }
  // "CPU Thread <tid>", "Graph: Stream <id>", "GPU Stream <id>" (with "GPU <device> " in
  // place of "GPU " when the kernels ran on more than one device).
  std::string Name(uint32_t final_index) const;

 private:
  struct KeyHash {
    size_t operator()(const LaneKey& k) const {
      return std::hash<uint64_t>()(k.id * 0x9e3779b97f4a7c15ull ^ (uint64_t{k.device} << 8) ^
                                   static_cast<uint64_t>(k.kind));
    }
  };
  std::unordered_map<LaneKey, uint32_t, KeyHash> provisional_;
  std::vector<LaneKey> added_;    // by provisional number
  std::vector<LaneKey> ordered_;  // by final number
  std::vector<uint32_t> final_of_;
  // The last lane of each kind: a kernel's lane and its launch's alternate, and consecutive
  // kernels mostly share a stream, consecutive launches a thread.
  LaneKey last_key_[3] = {};
  uint32_t last_number_[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  bool several_devices_ = false;
};

}  // namespace proton
