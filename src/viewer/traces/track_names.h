// Track names and what they say: our profiler's and Triton's lanes are named "CPU Thread
// <tid>", "GPU Stream <id>", "Graph: Stream <id>", and with several devices "GPU <device>
// Stream <id>" and "Graph: GPU <device> Stream <id>" (formats.md §4.4, §6, §7.3).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

struct TrackIdentity {
  TrackKind kind = TrackKind::kOther;
  int64_t id = kUnknown;
  int64_t device = kUnknown;
};

// What a lane's name says; kOther with unknown ids for any other name.
TrackIdentity IdentifyTrackName(std::string_view name);

// The name of a lane that has none (Triton 3.6 writes no metadata): "GPU Stream <id>",
// "CPU Thread <id>", or "Thread <id>" for other kinds.
std::string DefaultTrackName(TrackKind kind, int64_t id);

}  // namespace proton::viewer::traces
