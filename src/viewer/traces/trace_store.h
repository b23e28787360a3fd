// One trace held in memory, compactly, for the merge (merge/merge_traces.cc): it must sort
// each track before writing it, so it keeps every event of one input (about 60 bytes each
// with names, call stacks and metric names interned) and nothing of the inputs before it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/traces/string_table.h"
#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

class TraceStore : public TraceVisitor {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  struct Event {
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    uint32_t name = 0;      // strings()
    uint32_t category = 0;  // strings()
    uint32_t track = 0;
    uint32_t stack = kNone;  // Stack()
    uint32_t metrics = 0;    // first in metrics_
    uint32_t flows = 0;      // first in flows_: the ids it starts, then those that end on it
    uint16_t metric_count = 0;
    uint8_t flows_out = 0;
    uint8_t flows_in = 0;
    EventKind kind = EventKind::kOther;
    bool instant = false;
  };  // 48 bytes

  struct StoredMetric {
    uint32_t name = 0;  // strings()
    Metric::Type type = Metric::Type::kInt;
    union {
      int64_t int_value;
      uint64_t uint_value;
      double double_value;
      uint32_t text;  // strings()
    };
  };

  struct StoredTrack {
    TrackKind kind = TrackKind::kOther;
    int64_t id = kUnknown;
    int64_t device = kUnknown;
    std::string name;
  };

  Status OnBegin(const TraceInfo& info) override;
  Status OnTrack(const Track& track) override;
  Status OnEvent(const TraceEvent& event) override;
  Status OnEnd(const TraceSummary& summary) override;

  // Forgets the input; keeps the memory for the next one.
  void Clear();
  // Reserves for a file of `bytes` (address space only: untouched pages cost no memory), so
  // that the arrays do not grow by copying, which would hold the old and the new copy at once:
  // Chrome JSON takes about 150 bytes per event, our Perfetto files about 80; 48 leaves room.
  void ReserveFor(uint64_t bytes);
  // The file's name, for messages.
  void set_name(std::string name) { name_ = std::move(name); }
  // A string's id in strings(), added when new (the writer's own names).
  uint32_t InternString(std::string_view s) { return strings_.Intern(s); }

  const TraceInfo& info() const { return info_; }
  const TraceSummary& summary() const { return summary_; }
  std::vector<Event>& events() { return events_; }
  const std::vector<Event>& events() const { return events_; }
  const std::vector<StoredTrack>& tracks() const { return tracks_; }
  const StringTable& strings() const { return strings_; }
  std::span<const uint32_t> Stack(uint32_t id) const {
    if (id == kNone) return {};
    return {stack_frames_.data() + stack_offsets_[id], stack_offsets_[id + 1] - stack_offsets_[id]};
  }
  std::span<const StoredMetric> Metrics(const Event& e) const {
    return {metrics_.data() + e.metrics, e.metric_count};
  }
  std::span<const uint64_t> FlowsOut(const Event& e) const {
    return {flows_.data() + e.flows, e.flows_out};
  }
  std::span<const uint64_t> FlowsIn(const Event& e) const {
    return {flows_.data() + e.flows + e.flows_out, e.flows_in};
  }
  // Every flow id of every event (FlowsOut, FlowsIn point into it), for renumbering.
  std::vector<uint64_t>& flow_ids() { return flows_; }
  // Memory held, for the benchmark's notes.
  size_t bytes() const;

 private:
  uint32_t InternStack(std::span<const std::string_view> frames);

  std::string name_;
  TraceInfo info_;
  TraceSummary summary_;
  std::vector<StoredTrack> tracks_;
  std::vector<Event> events_;
  std::vector<StoredMetric> metrics_;
  std::vector<uint64_t> flows_;
  StringTable strings_;
  uint32_t InternCached(std::string_view s, std::string& last_text, uint32_t& last_id);

  // A call stack is looked up by its frames' text (each frame: 4 length bytes, then its
  // bytes), one hash per event; only a new stack interns its frames one by one.
  StringTable stacks_;
  std::string stack_key_;               // scratch
  std::vector<uint32_t> stack_frames_;  // stack i is [stack_offsets_[i], stack_offsets_[i + 1])
  std::vector<uint32_t> stack_offsets_{0};
  // The last name and category seen, with their ids: flow events repeat them.
  std::string last_name_, last_category_;
  uint32_t last_name_id_ = kNone, last_category_id_ = kNone;
};

}  // namespace proton::viewer::traces
