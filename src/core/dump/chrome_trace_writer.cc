// .chrome_trace writer; see chrome_trace_writer.h.
#include "core/dump/chrome_trace_writer.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/dump/json_text.h"

namespace proton {

void WriteChromeTrace(const TraceData& data, std::string& out, const ChunkSink* chunk_sink) {
  WriteOptions options;
  options.chunk_sink = chunk_sink;
  const std::vector<TraceEvent>& events = data.events();
  if (events.empty()) return;
  std::vector<uint32_t> order(events.size());
  std::iota(order.begin(), order.end(), 0u);
  // Stream by stream; within a stream by start time. Records arrive in buffer order, which is
  // not always start order (a buffer of the autograd thread's launches can complete after a
  // later one), and trace viewers expect each lane in time order (Triton 3.6 files are).
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (events[a].stream_id != events[b].stream_id) {
      return events[a].stream_id < events[b].stream_id;
    }
    return events[a].start_ns < events[b].start_ns;
  });
  uint64_t min_start = UINT64_MAX;
  for (const TraceEvent& e : events) min_start = std::min(min_start, e.start_ns);

  // The args/cat prefix and name of an event depend only on its leaf: cache them per node.
  std::unordered_map<uint32_t, std::pair<std::string, std::string>> cache;
  const ContextTree& tree = data.tree();
  out.append("{\"displayTimeUnit\":\"us\",\"traceEvents\":[");
  bool first = true;
  for (uint32_t index : order) {
    const TraceEvent& e = events[index];
    auto it = cache.find(e.node);
    if (it == cache.end()) {
      std::string head = "{\"args\":{\"call_stack\":[";
      std::vector<std::string_view> path = tree.Path(e.node);
      for (size_t i = 0; i < path.size(); ++i) {
        if (i) head.push_back(',');
        AppendJsonString(head, path[i]);
      }
      head.append("]},\"cat\":\"kernel\",\"dur\":");
      std::string name = ",\"name\":";
      AppendJsonString(name, tree.name(e.node));
      name.append(",\"ph\":\"X\",\"tid\":");
      it = cache.emplace(e.node, std::make_pair(std::move(head), std::move(name))).first;
    }
    if (!first) out.push_back(',');
    first = false;
    out.append(it->second.first);
    uint64_t dur = e.end_ns >= e.start_ns ? e.end_ns - e.start_ns : 0;
    AppendJsonDouble(out, static_cast<double>(dur) / 1000.0);
    out.append(it->second.second);
    AppendJsonUint(out, e.stream_id);
    out.append(",\"ts\":");
    AppendJsonDouble(out, static_cast<double>(e.start_ns - min_start) / 1000.0);
    out.push_back('}');
    MaybeFlushChunk(options, out);
  }
  out.append("]}\n");
  MaybeFlushChunk(options, out, /*force=*/true);
}

}  // namespace proton
