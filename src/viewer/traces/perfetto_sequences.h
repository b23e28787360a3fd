// The incremental state of Perfetto packet sequences (trusted_packet_sequence_id): interned
// strings and TracePacketDefaults, per sequence, dropped when a packet says
// SEQ_INCREMENTAL_STATE_CLEARED; and the latest ClockSnapshot, which is global.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace proton::viewer::traces {

enum class Interned : uint8_t { kCategory, kEventName, kAnnotationName, kAnnotationString };

// What a debug annotation's name says (formats.md §7.5): "call_stack_<i>" (a frame),
// "metric.<name>", "original_dur_ns", or anything else (a metric under its own name).
struct AnnotationRole {
  enum Kind : uint8_t { kOther, kFrame, kMetric, kOriginalDuration };
  Kind kind = kOther;
  uint32_t frame = 0;            // kFrame: i
  std::string_view metric_name;  // kMetric: <name>; kOther: the whole name
};
AnnotationRole ClassifyAnnotationName(std::string_view name);

// One interned index: iids are small and dense in every writer we know (from 1, in order of
// first use), so they index an array; others go to a map.
class InternTable {
 public:
  void Add(uint64_t iid, std::string_view text);
  const std::string* Find(uint64_t iid) const {
    if (iid < dense_.size()) return has_[iid] ? &dense_[iid] : nullptr;
    const auto it = sparse_.find(iid);
    return it == sparse_.end() ? nullptr : &it->second;
  }
  void Clear();

 private:
  std::vector<std::string> dense_;
  std::vector<bool> has_;
  std::unordered_map<uint64_t, std::string> sparse_;
};

struct PerfettoSequence {
  bool cleared = false;              // a packet cleared its state: packets that need it can be read
  std::optional<uint32_t> clock_id;  // TracePacketDefaults.timestamp_clock_id
  std::optional<uint64_t> track_uuid;  // TrackEventDefaults.track_uuid
  InternTable strings[4];              // by Interned

  void Clear();
  // The interned string, or nullptr.
  const std::string* Find(Interned kind, uint64_t iid) const {
    return strings[static_cast<size_t>(kind)].Find(iid);
  }
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
