// What the events of a Chrome trace mean (formats.md §4.2, §4.4, §6): metadata names the
// process and the lanes, "X" events are slices, "i"/"I" instants, "s"/"f" the two ends of a
// launch->kernel flow; times are microseconds after baseTimeNanoseconds (or after the
// trace's own zero without it). Turns each parsed JsonEvent into the model's TraceEvent for
// the visitor.
#pragma once

#include <cstdint>
#include <string>

#include "util/status.h"
#include "viewer/traces/chrome_lanes.h"
#include "viewer/traces/json_trace_event.h"
#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

class ChromeEventSink {
 public:
  ChromeEventSink(const std::string& name, TraceVisitor& visitor)
      : name_(name), visitor_(visitor) {}

  // baseTimeNanoseconds; before the first event it makes times absolute, after it is only
  // reported (TraceSummary::late_base_ns).
  void SetBaseTime(int64_t base);
  // One event; false on an error (status()).
  bool Take(const JsonEvent& event);
  // A document ended (Triton 3.6 writes one per stream); false on an error.
  bool EndDocument() { return true; }
  // After the last document: OnBegin if no event came, then OnEnd.
  Status Finish();
  const Status& status() const { return status_; }

 private:
  bool Begin();
  bool Fail(const std::string& what);
  bool Check(const Status& status);
  bool Metadata(const JsonEvent& e);
  bool Lane(const JsonEvent& e, EventKind kind, uint32_t& track);
  bool Times(const JsonEvent& e, TraceEvent& out);
  bool FlowId(const JsonEvent& e, uint64_t& id);
  bool Emit(const JsonEvent& e, char phase);

  const std::string& name_;
  TraceVisitor& visitor_;
  Status status_;
  TraceInfo info_;
  bool began_ = false;
  uint64_t count_ = 0;  // events read, for messages
  TraceSummary summary_;
  ChromeLanes lanes_;
  uint64_t flow_ = 0;
  bool last_ids_valid_ = false;  // Lane()'s last pid and tid tokens and their values
  std::string last_pid_text_, last_tid_text_;
  int64_t last_pid_ = 0, last_tid_ = 0;
};

}  // namespace proton::viewer::traces
