// The tracks of a Perfetto trace (TrackDescriptor, TracePacket field 60): named by their
// descriptor (its name, else its thread's or process's name), numbered as model tracks when
// an event first uses them, and each with the slices begun on it and not yet ended.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

// A SLICE_BEGIN waiting for its SLICE_END, with copies of what it said (its packet and the
// interned strings may be gone by then).
struct OpenSlice {
  int64_t start_ns = 0;
  EventKind kind = EventKind::kOther;
  std::string name, category;
  std::vector<std::string> call_stack;
  std::vector<Metric> metrics;  // names and texts point into `texts`
  std::deque<std::string> texts;
  std::vector<uint64_t> flows_out, flows_in;
  std::optional<uint64_t> original_dur_ns;
};

class PerfettoTracks {
 public:
  struct Descriptor {
    std::string name;
    std::optional<int64_t> pid, tid;  // a process or thread track
    std::string process_name, thread_name;
    std::optional<uint64_t> parent;
  };

  // A TrackDescriptor message; false when malformed. When the track is already a model track
  // (events came first), `renamed` gets its index.
  bool AddDescriptor(std::string_view bytes, std::optional<uint32_t>& renamed);
  // The process a descriptor without a parent describes, for TraceInfo.
  const Descriptor* process() const { return process_; }
  // The model track of `uuid`, made on first use (`created`).
  uint32_t Use(uint64_t uuid, bool& created);
  Track TrackOf(uint32_t index) const;

  // The open slices of a model track: Push returns a slot to fill (reused, so that its
  // strings keep their capacity); Pop the innermost, or nullptr.
  OpenSlice& Push(uint32_t index);
  OpenSlice* Pop(uint32_t index);
  // Slices begun and never ended, over all tracks.
  uint64_t OpenCount() const;

 private:
  struct Entry {
    uint64_t uuid = 0;
    Descriptor descriptor;
    bool described = false;
    std::optional<uint32_t> index;  // the model track
    std::string display;
    TrackKind kind = TrackKind::kOther;
    int64_t id = kUnknown, device = kUnknown;
    std::vector<OpenSlice> open;
    size_t depth = 0;
  };
  Entry& Find(uint64_t uuid);
  void Identify(Entry& e);

  std::unordered_map<uint64_t, size_t> by_uuid_;
  std::deque<Entry> entries_;
  std::vector<Entry*> by_index_;
  const Descriptor* process_ = nullptr;
};

}  // namespace proton::viewer::traces
