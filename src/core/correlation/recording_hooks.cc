// The BackendSink hooks' recording lines; see recording_hooks.h.
#include "core/correlation/recording_hooks.h"

#include <string>

#include "core/record/recorder.h"

namespace proton {

void RecordLaunchEnter(uint64_t correlation_id, std::string_view kernel_name,
                       uint32_t expected_records) {
  RecordLine("launch_enter")
      .Uint("corr", correlation_id)
      .Str("name", kernel_name)
      .Uint("expected", expected_records);
}

void RecordLaunchExit(uint64_t correlation_id) {
  RecordLine("launch_exit").Uint("corr", correlation_id);
}

void RecordNvtxPush(std::string_view message) { RecordLine("nvtx_push").Str("message", message); }

void RecordNvtxPop() { RecordLine("nvtx_pop"); }

void RecordGraphCaptured(uint64_t capture_key, std::string_view kernel_name) {
  RecordLine("graph_captured").Uint("key", capture_key).Str("name", kernel_name);
}

void RecordGraphReleased(uint64_t capture_key) {
  RecordLine("graph_released").Uint("key", capture_key);
}

void RecordKernel(const KernelRecord& record) {
  RecordLine("record")
      .Uint("corr", record.correlation_id)
      .Uint("start", record.start_ns)
      .Uint("end", record.end_ns)
      .Uint("device", record.device_id)
      .Uint("stream", record.stream_id)
      .Str("name", record.name)
      .Uint("graph", record.graph_id)
      .Uint("node", record.graph_node_id);
}

// One line per batch (one expected record): sample k as f<k>, s<k> and c<k>, the counters
// comma-separated in the order of kPcSamplingNames.
void RecordPcSamples(uint64_t correlation_id, std::span<const PcSample> samples) {
  RecordLine line("pc_samples");
  line.Uint("corr", correlation_id).Uint("n", samples.size());
  for (size_t k = 0; k < samples.size(); ++k) {
    std::string counters;
    for (uint64_t c : samples[k].counters) {
      if (!counters.empty()) counters += ',';
      counters += std::to_string(c);
    }
    std::string index = std::to_string(k);
    line.Str("f" + index, samples[k].function)
        .Str("s" + index, samples[k].source)
        .Str("c" + index, counters);
  }
}

void RecordBufferCompleted(uint64_t max_correlation_id) {
  RecordLine("buffer").Uint("max", max_correlation_id);
}

void RecordRecordsLost(RecordLoss why, uint64_t count) {
  RecordLine("lost").Int("why", static_cast<int>(why)).Uint("count", count);
}

}  // namespace proton
