// The merged Perfetto trace (formats.md §9): the layout of the profiler's own .perfetto_trace
// (§7) with one process per input. Each input gets its own process track (named by the
// caller: its rank), lane tracks with uuids unique in the file, its own packet sequence
// (trusted_packet_sequence_id, interned names from iid 1 again), and flows renumbered; every
// timestamp is on CLOCK_REALTIME, the primary clock of the file's clock snapshot, so inputs
// with absolute times line up. Written as it goes, input by input, through a sink.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "viewer/traces/flow_renumber.h"
#include "viewer/traces/trace_store.h"
#include "viewer/traces/track_sweep.h"

namespace proton::viewer::traces {

struct InputCounts {
  uint64_t events = 0;   // packets' worth of events written (slices, instants)
  uint64_t clamped = 0;  // slices clamped to the slice around them (§7.4)
  FlowCounts flows;
};

class MergedTraceWriter {
 public:
  // Takes the file's bytes in pieces of about 1 MiB; false stops the writer (a failed write).
  using Sink = std::function<bool(std::string_view)>;
  explicit MergedTraceWriter(Sink sink) : sink_(std::move(sink)) {}

  // The first packet: a clock snapshot of REALTIME (the primary clock) and BOOTTIME, read now
  // or given (tests).
  bool Begin();
  bool Begin(uint64_t realtime_ns, uint64_t boottime_ns);
  // One input (the store is reordered in place: flows renumbered, flow ends bound) as the
  // process `position` (0, 1, ...), named `process_name`, with `cmdline` as its command line.
  bool WriteInput(TraceStore& store, uint32_t position, const std::string& process_name,
                  const std::string& cmdline, InputCounts& counts);
  // Hands the rest to the sink.
  bool Finish() { return Flush(true); }

 private:
  struct Pending {
    uint32_t field;  // InternedData's
    uint64_t iid;
    std::string text;
  };
  struct Tables;  // per input, in the .cc

  bool Flush(bool all);
  void EmitPacket();
  void StartPacket(int64_t timestamp, uint32_t flags);
  void SequenceStart();
  void Descriptors(const TraceStore& store, const std::vector<uint32_t>& lanes, uint32_t position,
                   const std::string& process_name, const std::string& cmdline);
  std::vector<uint32_t> Lanes(const TraceStore& store) const;
  void Slice(const TraceStore& store, uint32_t event, bool clamped, Tables& t);
  void Instant(const TraceStore& store, uint32_t event, Tables& t);
  void End(const TraceStore& store, uint32_t event, int64_t time);
  void EventBody(const TraceStore& store, const TraceStore::Event& e, uint32_t type, Tables& t);
  void Annotations(const TraceStore& store, const TraceStore::Event& e, Tables& t);
  void InternedPacket();
  uint64_t Intern(std::vector<uint64_t>& iids, size_t key, uint32_t field, std::string_view text);
  void NameLaunches(TraceStore& store, uint64_t first_flow);

  Sink sink_;
  bool failed_ = false;
  std::string out_;                          // whole packets not yet handed to the sink
  std::string packet_, event_, annotation_;  // scratch
  std::vector<Pending> pending_;
  uint64_t next_iid_[4] = {1, 1, 1, 1};
  uint64_t next_flow_ = 1;
  uint32_t sequence_ = 0;
  uint64_t process_uuid_ = 0;
  std::vector<uint64_t> track_uuid_;  // by store track
  TrackOrder order_;
  FlowEndBindings bindings_;
  // Launch instants shown as the profiler's writer shows them (§7.5): named by the kernel
  // their flow ends on, in category "launch" (Chrome traces call them all "launch->kernel").
  std::vector<uint32_t> kernel_of_flow_;  // by renumbered flow id - the input's first
  FlowScratch flow_scratch_;
};

}  // namespace proton::viewer::traces
