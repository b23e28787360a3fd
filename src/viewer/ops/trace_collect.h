// What the trace reports (viewer.md §11.18) keep of one trace, gathered in one pass by a
// TraceVisitor (traces/trace_model.h): per track its kernels as (start, end, name) — 24 bytes
// a kernel, so 1M kernels are 24 MB — the kernel names once each, and the two halves of every
// launch->kernel flow. Nothing else of an event is kept.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "viewer/traces/trace_model.h"

namespace proton::viewer {

struct KernelSpan {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint32_t name = 0;  // index into CollectedTrace::names
};

struct CollectedTrack {
  std::string name;  // the lane's name as the trace gives it
  traces::TrackKind kind = traces::TrackKind::kOther;
  int64_t device = traces::kUnknown;
  std::vector<KernelSpan> kernels;  // in file order; the report sorts them by start
};

// A flow's end point: where the launched kernel starts. A Chrome trace puts an instant "f"
// point on the kernel's lane at its start; a Perfetto trace ends the flow on the kernel.
struct FlowEnd {
  uint64_t flow = 0;
  uint32_t track = 0;
  int64_t at_ns = 0;
  int64_t name = -1;  // the kernel's name index when the flow ends on the kernel itself
};

struct CollectedTrace {
  std::vector<CollectedTrack> tracks;  // by traces::Track::index
  std::vector<std::string> names;
  std::unordered_map<uint64_t, int64_t> launches;  // flow id -> launch time
  std::vector<FlowEnd> flow_ends;
  uint64_t kernels = 0;
};

class TraceCollector : public traces::TraceVisitor {
 public:
  Status OnBegin(const traces::TraceInfo&) override { return Status(); }
  Status OnTrack(const traces::Track& track) override;
  Status OnEvent(const traces::TraceEvent& event) override;
  Status OnEnd(const traces::TraceSummary&) override { return Status(); }

  CollectedTrace& trace() { return trace_; }

 private:
  uint32_t NameIndex(std::string_view name);
  CollectedTrack& TrackAt(uint32_t index);

  CollectedTrace trace_;
  std::unordered_map<std::string, uint32_t> name_index_;
};

}  // namespace proton::viewer
