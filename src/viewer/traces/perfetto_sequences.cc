// See perfetto_sequences.h.
#include "viewer/traces/perfetto_sequences.h"

#include "util/proto_wire.h"
#include "viewer/traces/perfetto_fields.h"

namespace proton::viewer::traces {
namespace {

// One interned entry {iid 1, name 2} into `table`.
bool AddEntry(std::string_view entry, std::unordered_map<uint64_t, std::string>& table) {
  proto::Reader r(entry);
  proto::Field f;
  uint64_t iid = 0;
  std::string_view name;
  while (r.Next(f)) {
    if (f.number == pf::interned::kIid && f.type == proto::kVarint) iid = f.varint;
    if (f.number == pf::interned::kName && f.type == proto::kLengthDelimited) name = f.bytes;
  }
  if (!r.ok()) return false;
  table[iid].assign(name);
  return true;
}

}  // namespace

void PerfettoSequence::Clear() {
  clock_id.reset();
  track_uuid.reset();
  for (auto& table : strings) table.clear();
}

const std::string* PerfettoSequence::Find(Interned kind, uint64_t iid) const {
  const auto& table = strings[static_cast<size_t>(kind)];
  const auto it = table.find(iid);
  return it == table.end() ? nullptr : &it->second;
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
