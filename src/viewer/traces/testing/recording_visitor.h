// Test helper: a TraceVisitor that copies everything it is given, so that tests can compare a
// reader's events with the ones a file holds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "viewer/traces/trace_model.h"
#include "viewer/traces/trace_reader.h"

namespace proton::viewer::traces::testing {

struct RecordedMetric {
  std::string name;
  Metric::Type type = Metric::Type::kInt;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double double_value = 0;
  std::string text;
};

struct RecordedTrack {
  TrackKind kind = TrackKind::kOther;
  int64_t id = kUnknown;
  int64_t device = kUnknown;
  std::string name;
};

struct RecordedEvent {
  EventKind kind = EventKind::kOther;
  bool instant = false;
  uint32_t track = 0;
  int64_t start_ns = 0, end_ns = 0;
  std::string name, category;
  std::vector<std::string> call_stack;
  std::vector<RecordedMetric> metrics;
  std::vector<uint64_t> flows_out, flows_in;

  const RecordedMetric* FindMetric(std::string_view metric) const {
    for (const RecordedMetric& m : metrics) {
      if (m.name == metric) return &m;
    }
    return nullptr;
  }
};

class RecordingVisitor : public TraceVisitor {
 public:
  Status OnBegin(const TraceInfo& i) override {
    ++begins;
    info = i;
    return Status();
  }
  Status OnTrack(const Track& t) override {
    if (t.index >= tracks.size()) tracks.resize(t.index + 1);
    tracks[t.index] = {t.kind, t.id, t.device, std::string(t.name)};
    ++track_calls;
    return Status();
  }
  Status OnEvent(const TraceEvent& e) override {
    RecordedEvent r{e.kind,
                    e.instant,
                    e.track,
                    e.start_ns,
                    e.end_ns,
                    std::string(e.name),
                    std::string(e.category),
                    {},
                    {},
                    {},
                    {}};
    for (std::string_view f : e.call_stack) r.call_stack.emplace_back(f);
    for (const Metric& m : e.metrics) {
      r.metrics.push_back({std::string(m.name), m.type, m.int_value, m.uint_value, m.double_value,
                           std::string(m.text)});
    }
    r.flows_out.assign(e.flows_out.begin(), e.flows_out.end());
    r.flows_in.assign(e.flows_in.begin(), e.flows_in.end());
    events.push_back(std::move(r));
    return Status();
  }
  Status OnEnd(const TraceSummary& s) override {
    ++ends;
    summary = s;
    return Status();
  }

  const RecordedTrack& TrackOf(const RecordedEvent& e) const { return tracks.at(e.track); }
  std::vector<const RecordedEvent*> OfKind(EventKind kind) const {
    std::vector<const RecordedEvent*> out;
    for (const RecordedEvent& e : events) {
      if (e.kind == kind) out.push_back(&e);
    }
    return out;
  }

  int begins = 0, ends = 0, track_calls = 0;
  TraceInfo info;
  TraceSummary summary;
  std::vector<RecordedTrack> tracks;
  std::vector<RecordedEvent> events;
};

// Reads `bytes` as a trace named "t".
inline Status ReadBytes(std::string_view bytes, TraceVisitor& visitor) {
  std::unique_ptr<TraceInput> input = TraceInput::FromBytes(bytes, "t");
  return ReadTrace(*input, visitor);
}

}  // namespace proton::viewer::traces::testing
