// Test-only reader of our .perfetto_trace files (formats.md §7) through util/proto_wire.h's
// Reader: decodes the packets into tracks and events with every interned id resolved, and
// reports the first broken rule of the layout (packet not on sequence 1, an iid used before it
// was interned, an event without SEQ_NEEDS_INCREMENTAL_STATE or before the sequence start, an
// event on an undeclared track, a malformed message). CheckTracks adds the per-track rules:
// time never goes back, every slice begins and ends on its track, every flow has both ends.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace proton::test {

struct DecodedAnnotation {
  std::string name;
  enum class Kind { kNone, kUint, kInt, kDouble, kString, kArray } kind = Kind::kNone;
  uint64_t u = 0;
  int64_t i = 0;
  double d = 0;
  std::string s;
  std::vector<DecodedAnnotation> array;
};

struct DecodedEvent {
  uint64_t ts = 0;
  uint64_t track = 0;
  uint64_t type = 0;
  std::string name;
  std::vector<std::string> categories;
  std::vector<DecodedAnnotation> annotations;
  std::vector<uint64_t> flow_ids;
  std::vector<uint64_t> terminating_flow_ids;
  const DecodedAnnotation* Find(std::string_view annotation) const;
  // A kernel's whole call stack as .chrome_trace writes it: "ROOT", call_stack_0,
  // call_stack_1, ..., then the kernel's name (formats.md §7.5).
  std::vector<std::string> CallStack() const;
};

struct DecodedTrack {
  uint64_t uuid = 0;
  uint64_t parent = 0;
  std::string name;
  int64_t pid = -1;  // process tracks only
  std::string process_name;
  int64_t rank = -1;
  uint64_t child_ordering = 0;
};

struct DecodedTrace {
  std::string error;  // empty: the layout held
  size_t packets = 0;
  bool clock_snapshot_first = false;
  std::map<uint64_t, uint64_t> clocks;  // clock id -> ns
  uint64_t primary_clock = 0;
  uint64_t default_clock = 0;        // TracePacketDefaults.timestamp_clock_id
  std::vector<DecodedTrack> tracks;  // in file order
  std::vector<DecodedEvent> events;  // in file order
  std::map<std::string, uint64_t> category_iids;
  const DecodedTrack* Track(uint64_t uuid) const;
  const DecodedTrack* TrackNamed(std::string_view name) const;
};

DecodedTrace DecodePerfettoTrace(std::string_view file);

// The per-track rules (formats.md §7.4) and flows; "" when they hold, else the first failure.
std::string CheckTracks(const DecodedTrace& trace);

}  // namespace proton::test
