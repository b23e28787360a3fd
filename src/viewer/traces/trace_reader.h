// The one entry for reading a trace: the format is told from the content, not the name
// (a Chrome trace is JSON text, a Perfetto trace a protobuf Trace message), and the file is
// read once, front to back, by json_trace_reader.cc or perfetto_trace_reader.cc, which hand
// every event to the visitor as they read it.
#pragma once

#include <optional>
#include <string_view>

#include "util/status.h"
#include "viewer/traces/trace_input.h"
#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

enum class TraceFileKind : uint8_t {
  kChromeJson,   // JSON text: a Chrome trace (or a JSON tree profile, which its reader refuses)
  kPerfetto,     // a protobuf Trace message (or an empty file)
  kTreeProfile,  // a MessagePack tree profile
  kNeither,
};

// What the first bytes of a file say (at least 64 bytes, or the whole file when shorter).
TraceFileKind SniffTrace(std::string_view head);

// Reads the trace in `input` (errors name it as input.name()). Besides the readers' errors:
//   cannot read 'F': not a Chrome (JSON) or Perfetto (protobuf) trace
//   'F' is a Proton tree profile, not a trace
// An empty file is an empty trace (Triton 3.6 writes one when no kernel ran).
Status ReadTrace(TraceInput& input, TraceVisitor& visitor);

// Opens and reads `path` ("-" = standard input).
Status ReadTraceFile(std::string_view path, TraceVisitor& visitor);

// The first bytes of a regular file, classified without reading it whole (the command checks
// every input this way before it writes anything); nullopt for what cannot be read so (a
// pipe, standard input), which ReadTrace then decides.
std::optional<TraceFileKind> SniffTraceFile(std::string_view path);

}  // namespace proton::viewer::traces
