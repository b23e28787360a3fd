// The incremental state of Perfetto packet sequences (trusted_packet_sequence_id): interned
// strings and TracePacketDefaults, per sequence, dropped when a packet says
// SEQ_INCREMENTAL_STATE_CLEARED; and the latest ClockSnapshot, which is global.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace proton::viewer::traces {

enum class Interned : uint8_t { kCategory, kEventName, kAnnotationName, kAnnotationString };

struct PerfettoSequence {
  bool cleared = false;              // a packet cleared its state: packets that need it can be read
  std::optional<uint32_t> clock_id;  // TracePacketDefaults.timestamp_clock_id
  std::optional<uint64_t> track_uuid;                    // TrackEventDefaults.track_uuid
  std::unordered_map<uint64_t, std::string> strings[4];  // by Interned

  void Clear();
  // The interned string, or nullptr.
  const std::string* Find(Interned kind, uint64_t iid) const;
  // An InternedData message; false when malformed.
  bool AddInterned(std::string_view interned_data);
  // A TracePacketDefaults message; false when malformed.
  bool SetDefaults(std::string_view defaults);
};

class PerfettoSequences {
 public:
  PerfettoSequence& Get(uint32_t id);

 private:
  std::unordered_map<uint32_t, PerfettoSequence> sequences_;
  uint32_t last_id_ = 0;
  PerfettoSequence* last_ = nullptr;
};

// The latest ClockSnapshot: which builtin clocks it read, and when.
class PerfettoClocks {
 public:
  // A ClockSnapshot message; false when malformed.
  bool AddSnapshot(std::string_view snapshot);
  // `t` on `clock_id` as CLOCK_REALTIME ns, when it is REALTIME or the snapshot relates the
  // two; nullopt otherwise.
  std::optional<int64_t> ToRealtime(uint32_t clock_id, uint64_t t) const;

 private:
  std::unordered_map<uint32_t, uint64_t> readings_;
};

}  // namespace proton::viewer::traces
