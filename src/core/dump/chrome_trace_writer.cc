// .chrome_trace writer; see chrome_trace_writer.h.
#include "core/dump/chrome_trace_writer.h"

#include <algorithm>
#include <unordered_map>

#include "core/dump/json_text.h"

namespace proton {
namespace {

// Lane kinds in display order; each lane gets the next numeric tid.
enum LaneKind { kCpuLane, kGpuLane, kGraphLane, kLaneKinds };
constexpr std::string_view kLanePrefix[kLaneKinds] = {"CPU Thread ", "GPU Stream ",
                                                      "Graph: Stream "};

class Lanes {
 public:
  // Per event: a trace has few lanes and consecutive events mostly share one.
  void Add(LaneKind kind, uint64_t id) {
    std::vector<uint64_t>& ids = ids_[kind];
    if (!ids.empty() && ids.back() == id) return;
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  // Sorts and numbers the lanes; call once after every Add.
  void Number() {
    uint32_t next = 0;
    for (int k = 0; k < kLaneKinds; ++k) {
      std::sort(ids_[k].begin(), ids_[k].end());
      first_[k] = next;
      next += static_cast<uint32_t>(ids_[k].size());
    }
  }
  uint32_t Tid(LaneKind kind, uint64_t id) const {
    const std::vector<uint64_t>& ids = ids_[kind];
    auto it = std::lower_bound(ids.begin(), ids.end(), id);
    return first_[kind] + static_cast<uint32_t>(it - ids.begin());
  }
  const std::vector<uint64_t>& ids(int kind) const { return ids_[kind]; }
  bool empty() const { return ids_[0].empty() && ids_[1].empty() && ids_[2].empty(); }

 private:
  std::vector<uint64_t> ids_[kLaneKinds];
  uint32_t first_[kLaneKinds] = {};
};

LaneKind KernelLane(const TraceEvent& e) { return e.graph_id != 0 ? kGraphLane : kGpuLane; }

void AppendMetricValue(std::string& out, const MetricValue& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) return AppendJsonInt(out, *i);
  if (const auto* d = std::get_if<double>(&value)) return AppendJsonDouble(out, *d);
  out.push_back('[');
  if (const auto* v = std::get_if<std::vector<int64_t>>(&value)) {
    for (size_t i = 0; i < v->size(); ++i) {
      if (i) out.push_back(',');
      AppendJsonInt(out, (*v)[i]);
    }
  } else if (const auto* w = std::get_if<std::vector<double>>(&value)) {
    for (size_t i = 0; i < w->size(); ++i) {
      if (i) out.push_back(',');
      AppendJsonDouble(out, (*w)[i]);
    }
  }
  out.push_back(']');
}

// Metrics sorted by name: JSON writers sort object keys, and names read the same way.
std::vector<const FlexMetric*> SortedMetrics(const std::vector<FlexMetric>& metrics) {
  std::vector<const FlexMetric*> sorted;
  sorted.reserve(metrics.size());
  for (const FlexMetric& m : metrics) sorted.push_back(&m);
  std::sort(sorted.begin(), sorted.end(),
            [](const FlexMetric* a, const FlexMetric* b) { return a->name < b->name; });
  return sorted;
}

// {"name":value,...}
void AppendMetricsObject(std::string& out, const std::vector<FlexMetric>& metrics) {
  out.push_back('{');
  bool first = true;
  for (const FlexMetric* m : SortedMetrics(metrics)) {
    if (!first) out.push_back(',');
    first = false;
    AppendJsonString(out, m->name);
    out.push_back(':');
    AppendMetricValue(out, m->value);
  }
  out.push_back('}');
}

// "<scope>: <m1, v1>, <m2, v2>" (the metric event's name).
std::string MetricEventName(const ScopeEvent& scope) {
  std::string name = scope.name + ":";
  bool first = true;
  for (const FlexMetric* m : SortedMetrics(scope.metrics)) {
    name.append(first ? " <" : ", <");
    first = false;
    name.append(m->name);
    name.append(", ");
    AppendMetricValue(name, m->value);
    name.push_back('>');
  }
  return name;
}

// Writes the events of one trace; holds what every event needs.
class TraceWriter {
 public:
  TraceWriter(const TraceData& data, std::string& out, const ChunkSink* chunk_sink)
      : data_(data), events_(data.events()), scopes_(data.scope_events()), out_(out) {
    options_.chunk_sink = chunk_sink;
  }
  void Write();

 private:
  void CollectLanesAndTimes();
  void WriteMetadata();
  void WriteKernels();
  void WriteScopes(bool metrics);
  void WriteFlows();
  // ,"ph":"X","pid":0,"tid":<tid>,"ts":<ts>} after the caller wrote the keys before "ph".
  void AppendTail(std::string_view ph, uint32_t tid, uint64_t ns);
  void AppendTs(uint64_t ns) { AppendJsonDouble(out_, static_cast<double>(ns - base_) / 1000.0); }
  void AppendDur(uint64_t start, uint64_t end) {
    AppendJsonDouble(out_, static_cast<double>(end >= start ? end - start : 0) / 1000.0);
  }
  void Separate() {
    if (!first_event_) out_.push_back(',');
    first_event_ = false;
  }
  // False once the sink refused a chunk: the write stops.
  bool Flush() {
    stopped_ = stopped_ || !MaybeFlushChunk(options_, out_);
    return !stopped_;
  }
  uint64_t ScopeEnd(const ScopeEvent& s) const { return s.open ? last_ : s.end_ns; }

  const TraceData& data_;
  const std::vector<TraceEvent>& events_;
  const std::vector<ScopeEvent>& scopes_;
  std::string& out_;
  WriteOptions options_;
  Lanes lanes_;
  struct KernelKey {
    uint64_t start_ns;
    uint32_t tid;
    uint32_t index;  // into events_
  };
  std::vector<KernelKey> kernel_order_;
  uint64_t base_ = 0;  // earliest timestamp
  uint64_t last_ = 0;  // latest timestamp: where still-open scopes end
  bool first_event_ = true;
  bool stopped_ = false;  // the sink refused a chunk
};

void TraceWriter::CollectLanesAndTimes() {
  uint64_t first = UINT64_MAX;
  auto see = [&](uint64_t ns) {
    first = std::min(first, ns);
    last_ = std::max(last_, ns);
  };
  for (const TraceEvent& e : events_) {
    lanes_.Add(KernelLane(e), e.stream_id);
    see(e.start_ns);
    see(e.end_ns);
    if (e.launch_ns != 0) {
      lanes_.Add(kCpuLane, e.launch_thread);
      see(e.launch_ns);
    }
  }
  for (const ScopeEvent& s : scopes_) {
    lanes_.Add(kCpuLane, s.thread);
    see(s.start_ns);
    if (!s.open) see(s.end_ns);
  }
  lanes_.Number();
  base_ = first == UINT64_MAX ? 0 : first;
  // Lane by lane; within a lane by start time. Records arrive in buffer order, which is not
  // always start order, and trace viewers expect each lane in time order.
  // The keys are sorted themselves (no indirection: 1M events sort in cache-friendly runs);
  // the index breaks ties, so the order is that of a stable sort.
  kernel_order_.resize(events_.size());
  for (uint32_t i = 0; i < events_.size(); ++i) {
    const TraceEvent& e = events_[i];
    kernel_order_[i] = KernelKey{e.start_ns, lanes_.Tid(KernelLane(e), e.stream_id), i};
  }
  std::sort(kernel_order_.begin(), kernel_order_.end(), [](const KernelKey& a, const KernelKey& b) {
    if (a.tid != b.tid) return a.tid < b.tid;
    if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
    return a.index < b.index;
  });
}

void TraceWriter::AppendTail(std::string_view ph, uint32_t tid, uint64_t ns) {
  out_.append(",\"ph\":\"");
  out_.append(ph);
  out_.append("\",\"pid\":0,\"tid\":");
  AppendJsonUint(out_, tid);
  out_.append(",\"ts\":");
  AppendTs(ns);
  out_.push_back('}');
}

void TraceWriter::WriteMetadata() {
  if (lanes_.empty()) return;
  Separate();
  out_.append(
      "{\"args\":{\"name\":\"Trace\"},\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0},"
      "{\"args\":{\"sort_index\":0},\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":0}");
  for (int kind = 0; kind < kLaneKinds; ++kind) {
    for (uint64_t id : lanes_.ids(kind)) {
      uint32_t tid = lanes_.Tid(static_cast<LaneKind>(kind), id);
      out_.append(",{\"args\":{\"name\":\"");
      out_.append(kLanePrefix[kind]);
      AppendJsonUint(out_, id);
      out_.append("\"},\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":");
      AppendJsonUint(out_, tid);
      out_.append("},{\"args\":{\"sort_index\":");
      AppendJsonUint(out_, tid);
      out_.append("},\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,\"tid\":");
      AppendJsonUint(out_, tid);
      out_.push_back('}');
    }
  }
  Flush();
}

void TraceWriter::WriteKernels() {
  // The args/cat prefix and name of an event depend only on its leaf: cache them per node.
  std::unordered_map<uint32_t, std::pair<std::string, std::string>> cache;
  const ContextTree& tree = data_.tree();
  for (const KernelKey& key : kernel_order_) {
    const TraceEvent& e = events_[key.index];
    auto it = cache.find(e.node);
    if (it == cache.end()) {
      std::string head = "{\"args\":{\"call_stack\":[";
      std::vector<std::string_view> path = tree.Path(e.node);
      for (size_t i = 0; i < path.size(); ++i) {
        if (i) head.push_back(',');
        AppendJsonString(head, path[i]);
      }
      head.push_back(']');
      if (const std::vector<FlexMetric>* metrics = data_.NodeMetrics(e.node)) {
        head.append(",\"metrics\":");
        AppendMetricsObject(head, *metrics);
      }
      head.append("},\"cat\":\"kernel\",\"dur\":");
      std::string name = ",\"name\":";
      AppendJsonString(name, tree.name(e.node));
      name.append(",\"ph\":\"X\",\"pid\":0,\"tid\":");
      it = cache.emplace(e.node, std::make_pair(std::move(head), std::move(name))).first;
    }
    Separate();
    out_.append(it->second.first);
    AppendDur(e.start_ns, e.end_ns);
    out_.append(it->second.second);
    AppendJsonUint(out_, key.tid);
    out_.append(",\"ts\":");
    AppendTs(e.start_ns);
    out_.push_back('}');
    if (!Flush()) return;
  }
}

void TraceWriter::WriteScopes(bool metrics) {
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < scopes_.size(); ++i) {
    if (!metrics || !scopes_[i].metrics.empty()) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (scopes_[a].thread != scopes_[b].thread) return scopes_[a].thread < scopes_[b].thread;
    return scopes_[a].start_ns < scopes_[b].start_ns;
  });
  for (uint32_t index : order) {
    const ScopeEvent& s = scopes_[index];
    Separate();
    out_.push_back('{');
    if (metrics) {
      out_.append("\"args\":{\"metrics\":");
      AppendMetricsObject(out_, s.metrics);
      out_.append("},");
    }
    out_.append(metrics ? "\"cat\":\"metric\",\"dur\":" : "\"cat\":\"scope\",\"dur\":");
    AppendDur(s.start_ns, ScopeEnd(s));
    out_.append(",\"name\":");
    AppendJsonString(out_, metrics ? MetricEventName(s) : s.name);
    AppendTail("X", lanes_.Tid(kCpuLane, s.thread), s.start_ns);
    if (!Flush()) return;
  }
}

void TraceWriter::WriteFlows() {
  uint64_t id = 0;
  for (const KernelKey& key : kernel_order_) {
    const TraceEvent& e = events_[key.index];
    ++id;  // the kernel's position in the file: unique per flow
    if (e.launch_ns == 0) continue;
    Separate();
    out_.append("{\"cat\":\"flow\",\"id\":");
    AppendJsonUint(out_, id);
    out_.append(",\"name\":\"launch->kernel\"");
    AppendTail("s", lanes_.Tid(kCpuLane, e.launch_thread), e.launch_ns);
    out_.append(",{\"bp\":\"e\",\"cat\":\"flow\",\"id\":");
    AppendJsonUint(out_, id);
    out_.append(",\"name\":\"launch->kernel\"");
    AppendTail("f", key.tid, e.start_ns);
    if (!Flush()) return;
  }
}

void TraceWriter::Write() {
  CollectLanesAndTimes();
  out_.append("{\"baseTimeNanoseconds\":");
  AppendJsonUint(out_, base_);
  out_.append(",\"displayTimeUnit\":\"us\",\"traceEvents\":[");
  WriteMetadata();
  if (!stopped_) WriteKernels();
  if (!stopped_) WriteScopes(/*metrics=*/false);
  if (!stopped_) WriteScopes(/*metrics=*/true);
  if (!stopped_) WriteFlows();
  if (stopped_) return;
  out_.append("]}\n");
  MaybeFlushChunk(options_, out_, /*force=*/true);
}

}  // namespace

void WriteChromeTrace(const TraceData& data, std::string& out, const ChunkSink* chunk_sink) {
  TraceWriter(data, out, chunk_sink).Write();
}

}  // namespace proton
