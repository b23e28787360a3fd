// See perfetto_tracks.h.
#include "viewer/traces/perfetto_tracks.h"

#include "util/proto_wire.h"
#include "viewer/traces/perfetto_fields.h"
#include "viewer/traces/track_names.h"

namespace proton::viewer::traces {
namespace {

// A ProcessDescriptor or ThreadDescriptor: its pid (or tid) and name.
bool ReadIdentity(std::string_view bytes, uint32_t id_field, uint32_t name_field,
                  std::optional<int64_t>& id, std::string& name) {
  proto::Reader r(bytes);
  proto::Field f;
  while (r.Next(f)) {
    if (f.number == id_field && f.type == proto::kVarint) id = static_cast<int32_t>(f.varint);
    if (f.number == name_field && f.type == proto::kLengthDelimited) name.assign(f.bytes);
  }
  if (!id) id = 0;
  return r.ok();
}

}  // namespace

PerfettoTracks::Entry& PerfettoTracks::Find(uint64_t uuid) {
  const auto [it, added] = by_uuid_.emplace(uuid, entries_.size());
  if (added) {
    entries_.emplace_back();
    entries_.back().uuid = uuid;
    Identify(entries_.back());
  }
  return entries_[it->second];
}

// The display name and kind: the descriptor's name, else its thread's, else its process's.
void PerfettoTracks::Identify(Entry& e) {
  const Descriptor& d = e.descriptor;
  e.display = !d.name.empty()           ? d.name
              : !d.thread_name.empty()  ? d.thread_name
              : !d.process_name.empty() ? d.process_name
                                        : "Track " + std::to_string(e.uuid);
  const TrackIdentity identity = IdentifyTrackName(e.display);
  e.kind = identity.kind;
  e.id = identity.id;
  e.device = identity.device;
  if (e.kind == TrackKind::kOther && d.tid) {
    e.kind = TrackKind::kCpuThread;
    e.id = *d.tid;
  }
}

bool PerfettoTracks::AddDescriptor(std::string_view bytes, std::optional<uint32_t>& renamed) {
  proto::Reader r(bytes);
  proto::Field f;
  uint64_t uuid = 0;
  Descriptor d;
  bool ok = true;
  while (ok && r.Next(f)) {
    const bool bytes_field = f.type == proto::kLengthDelimited;
    if (f.number == pf::track::kUuid && f.type == proto::kVarint) uuid = f.varint;
    if (f.number == pf::track::kParentUuid && f.type == proto::kVarint) d.parent = f.varint;
    if (f.number == pf::track::kName && bytes_field) d.name.assign(f.bytes);
    if (f.number == pf::track::kProcess && bytes_field) {
      ok = ReadIdentity(f.bytes, pf::track::kProcessPid, pf::track::kProcessName, d.pid,
                        d.process_name);
    }
    if (f.number == pf::track::kThread && bytes_field) {
      std::optional<int64_t> pid;
      std::string ignored;
      ok = ReadIdentity(f.bytes, pf::track::kThreadTid, pf::track::kThreadName, d.tid,
                        d.thread_name) &&
           ReadIdentity(f.bytes, pf::track::kThreadPid, 0, pid, ignored);
    }
  }
  if (!ok || !r.ok()) return false;
  Entry& e = Find(uuid);
  e.descriptor = std::move(d);
  e.described = true;
  Identify(e);
  if (e.descriptor.pid && !e.descriptor.parent && process_ == nullptr) process_ = &e.descriptor;
  renamed = e.index;
  return true;
}

uint32_t PerfettoTracks::Use(uint64_t uuid, bool& created) {
  Entry& e = Find(uuid);
  created = !e.index.has_value();
  if (created) {
    e.index = static_cast<uint32_t>(by_index_.size());
    by_index_.push_back(&e);
  }
  return *e.index;
}

Track PerfettoTracks::TrackOf(uint32_t index) const {
  const Entry& e = *by_index_[index];
  Track t;
  t.index = index;
  t.kind = e.kind;
  t.id = e.id;
  t.device = e.device;
  t.name = e.display;
  return t;
}

OpenSlice& PerfettoTracks::Push(uint32_t index) {
  Entry& e = *by_index_[index];
  if (e.depth == e.open.size()) e.open.emplace_back();
  return e.open[e.depth++];
}

OpenSlice* PerfettoTracks::Pop(uint32_t index) {
  Entry& e = *by_index_[index];
  if (e.depth == 0) return nullptr;
  return &e.open[--e.depth];
}

uint64_t PerfettoTracks::OpenCount() const {
  uint64_t n = 0;
  for (const Entry* e : by_index_) n += e->depth;
  return n;
}

}  // namespace proton::viewer::traces
