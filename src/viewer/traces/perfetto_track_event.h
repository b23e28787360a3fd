// One TrackEvent (TracePacket field 11) decoded with its sequence's interned strings
// (formats.md §7.5): type, track, name, category, flows, and the debug annotations turned
// back into the model's call stack ("call_stack_<i>"; a kernel's "ROOT" and own name added
// where the file leaves them implied, as ours does) and metrics ("metric.<name>", and any
// other annotation under its own name); "original_dur_ns" gives back a clamped slice's
// recorded duration.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "viewer/traces/perfetto_sequences.h"
#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

struct DecodedTrackEvent {
  uint32_t type = 0;
  std::optional<uint64_t> track_uuid;
  std::string_view name;
  std::string_view category;  // the first one
  std::vector<std::string_view> call_stack;
  std::vector<Metric> metrics;
  std::vector<uint64_t> flows_out;
  std::vector<uint64_t> flows_in;
  std::optional<uint64_t> original_dur_ns;

  void Clear();
};

class TrackEventDecoder {
 public:
  // Decodes `bytes` into `out` (whose views point into `bytes`, the sequence's tables or this
  // decoder); false with error() set when malformed or an iid is not interned.
  bool Decode(std::string_view bytes, const PerfettoSequence& sequence, DecodedTrackEvent& out);
  const std::string& error() const { return error_; }

 private:
  bool Annotation(std::string_view bytes, const PerfettoSequence& sequence, DecodedTrackEvent& out);
  // The annotation's name and value, in one pass; `has_value` false when it has none the
  // model keeps.
  bool AnnotationValue(std::string_view bytes, const PerfettoSequence& sequence, Metric& value,
                       std::string_view& name, bool& has_value);
  // array_values: the elements' values as JSON text, "[1,2.5]".
  bool ArrayElement(std::string_view bytes, const PerfettoSequence& sequence, std::string& text);
  bool Interned(const PerfettoSequence& sequence, Interned kind, uint64_t iid,
                std::string_view& out, const char* what);
  bool Fail(std::string message);

  std::string error_;
  std::vector<std::pair<uint64_t, std::string_view>> frames_;  // (i, name) of call_stack_<i>
  std::deque<std::string> texts_;                              // vector metrics' text
};

}  // namespace proton::viewer::traces
