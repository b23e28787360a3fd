// See trace_collect.h.
#include "viewer/ops/trace_collect.h"

namespace proton::viewer {

CollectedTrack& TraceCollector::TrackAt(uint32_t index) {
  if (index >= trace_.tracks.size()) trace_.tracks.resize(index + 1);
  return trace_.tracks[index];
}

Status TraceCollector::OnTrack(const traces::Track& track) {
  CollectedTrack& kept = TrackAt(track.index);
  kept.name = std::string(track.name);
  kept.kind = track.kind;
  kept.device = track.device;
  return Status();
}

uint32_t TraceCollector::NameIndex(std::string_view name) {
  // One lookup per kernel; the copy into a key is made only for a name not seen before.
  thread_local std::string key;
  key.assign(name);
  auto [it, inserted] = name_index_.try_emplace(key, static_cast<uint32_t>(trace_.names.size()));
  if (inserted) trace_.names.push_back(key);
  return it->second;
}

Status TraceCollector::OnEvent(const traces::TraceEvent& event) {
  int64_t name = -1;
  if (event.kind == traces::EventKind::kKernel && !event.instant) {
    const uint32_t index = NameIndex(event.name);
    name = index;
    TrackAt(event.track).kernels.push_back({event.start_ns, event.end_ns, index});
    ++trace_.kernels;
  }
  for (const uint64_t flow : event.flows_out) trace_.launches.emplace(flow, event.start_ns);
  for (const uint64_t flow : event.flows_in) {
    trace_.flow_ends.push_back({flow, event.track, event.start_ns, name});
  }
  return Status();
}

}  // namespace proton::viewer
