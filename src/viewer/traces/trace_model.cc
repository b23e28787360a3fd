// See trace_model.h.
#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

std::string_view EventKindName(EventKind kind) {
  switch (kind) {
    case EventKind::kKernel: return "kernel";
    case EventKind::kScope: return "scope";
    case EventKind::kMetric: return "metric";
    case EventKind::kFlow: return "flow";
    case EventKind::kOther: break;
  }
  return "other";
}

std::string_view TrackKindName(TrackKind kind) {
  switch (kind) {
    case TrackKind::kCpuThread: return "cpu_thread";
    case TrackKind::kGpuStream: return "gpu_stream";
    case TrackKind::kGraphStream: return "graph_stream";
    case TrackKind::kOther: break;
  }
  return "other";
}

EventKind EventKindOfCategory(std::string_view category) {
  if (category == "kernel") return EventKind::kKernel;
  if (category == "scope") return EventKind::kScope;
  if (category == "metric") return EventKind::kMetric;
  if (category == "launch" || category == "flow") return EventKind::kFlow;
  return EventKind::kOther;
}

}  // namespace proton::viewer::traces
