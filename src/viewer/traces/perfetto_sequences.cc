// See perfetto_sequences.h.
#include "viewer/traces/perfetto_sequences.h"

#include <charconv>

#include "util/proto_wire.h"
#include "viewer/traces/perfetto_fields.h"

namespace proton::viewer::traces {
namespace {

constexpr uint64_t kMaxDenseIid = uint64_t{1} << 22;

// One interned entry {iid 1, name 2} into `table`.
bool AddEntry(std::string_view entry, InternTable& table) {
  proto::Reader r(entry);
  proto::Field f;
  uint64_t iid = 0;
  std::string_view name;
  while (r.Next(f)) {
    if (f.number == pf::interned::kIid && f.type == proto::kVarint) iid = f.varint;
    if (f.number == pf::interned::kName && f.type == proto::kLengthDelimited) name = f.bytes;
  }
  if (!r.ok()) return false;
  table.Add(iid, name);
  return true;
}

}  // namespace

AnnotationRole ClassifyAnnotationName(std::string_view name) {
  constexpr std::string_view kFramePrefix = "call_stack_";
  constexpr std::string_view kMetricPrefix = "metric.";
  AnnotationRole role;
  role.metric_name = name;
  if (name.starts_with(kFramePrefix)) {
    const std::string_view digits = name.substr(kFramePrefix.size());
    uint32_t i = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), i);
    if (ec == std::errc() && end == digits.data() + digits.size() && !digits.empty()) {
      role.kind = AnnotationRole::kFrame;
      role.frame = i;
    }
  } else if (name.starts_with(kMetricPrefix)) {
    role.kind = AnnotationRole::kMetric;
    role.metric_name = name.substr(kMetricPrefix.size());
  } else if (name == "original_dur_ns") {
    role.kind = AnnotationRole::kOriginalDuration;
  }
  return role;
}

void InternTable::Add(uint64_t iid, std::string_view text) {
  if (iid >= kMaxDenseIid) {
    sparse_[iid].assign(text);
    return;
  }
  if (iid >= dense_.size()) {
    dense_.resize(iid + 1);
    has_.resize(iid + 1, false);
  }
  dense_[iid].assign(text);
  has_[iid] = true;
}

void InternTable::Clear() {
  dense_.clear();
  has_.clear();
  sparse_.clear();
}

void PerfettoSequence::Clear() {
  clock_id.reset();
  track_uuid.reset();
  for (auto& table : strings) table.Clear();
}

bool PerfettoSequence::AddInterned(std::string_view interned_data) {
  proto::Reader r(interned_data);
  proto::Field f;
  while (r.Next(f)) {
    if (f.type != proto::kLengthDelimited) continue;
    Interned kind;
    switch (f.number) {
      case pf::interned::kEventCategories: kind = Interned::kCategory; break;
      case pf::interned::kEventNames: kind = Interned::kEventName; break;
      case pf::interned::kDebugAnnotationNames: kind = Interned::kAnnotationName; break;
      case pf::interned::kDebugAnnotationStringValues: kind = Interned::kAnnotationString; break;
      default: continue;
    }
    if (!AddEntry(f.bytes, strings[static_cast<size_t>(kind)])) return false;
  }
  return r.ok();
}

bool PerfettoSequence::SetDefaults(std::string_view defaults) {
  proto::Reader r(defaults);
  proto::Field f;
  while (r.Next(f)) {
    if (f.number == pf::defaults::kTimestampClockId && f.type == proto::kVarint) {
      clock_id = static_cast<uint32_t>(f.varint);
    }
    if (f.number == pf::defaults::kTrackEventDefaults && f.type == proto::kLengthDelimited) {
      proto::Reader d(f.bytes);
      proto::Field g;
      while (d.Next(g)) {
        if (g.number == pf::defaults::kTrackUuid && g.type == proto::kVarint) track_uuid = g.varint;
      }
      if (!d.ok()) return false;
    }
  }
  return r.ok();
}

PerfettoSequence& PerfettoSequences::Get(uint32_t id) {
  if (last_ != nullptr && id == last_id_) return *last_;
  last_id_ = id;
  last_ = &sequences_[id];  // unordered_map keeps element addresses
  return *last_;
}

bool PerfettoClocks::AddSnapshot(std::string_view snapshot) {
  proto::Reader r(snapshot);
  proto::Field f;
  while (r.Next(f)) {
    if (f.number != pf::clock::kClocks || f.type != proto::kLengthDelimited) continue;
    proto::Reader c(f.bytes);
    proto::Field g;
    uint32_t id = 0;
    uint64_t timestamp = 0;
    while (c.Next(g)) {
      if (g.number == pf::clock::kClockId && g.type == proto::kVarint) {
        id = static_cast<uint32_t>(g.varint);
      }
      if (g.number == pf::clock::kClockTimestamp && g.type == proto::kVarint) timestamp = g.varint;
    }
    if (!c.ok()) return false;
    readings_[id] = timestamp;
  }
  return r.ok();
}

std::optional<int64_t> PerfettoClocks::ToRealtime(uint32_t clock_id, uint64_t t) const {
  if (clock_id == pf::clock::kRealtime) return static_cast<int64_t>(t);
  const auto clock = readings_.find(clock_id);
  const auto realtime = readings_.find(pf::clock::kRealtime);
  if (clock == readings_.end() || realtime == readings_.end()) return std::nullopt;
  return static_cast<int64_t>(t + (realtime->second - clock->second));
}

}  // namespace proton::viewer::traces
