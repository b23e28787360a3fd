// See trace_store.h.
#include "viewer/traces/trace_store.h"

#include <algorithm>

namespace proton::viewer::traces {
namespace {

constexpr size_t kMaxFlowsPerEvent = 255;  // more are dropped (no trace writes more than one)
constexpr size_t kMaxMetricsPerEvent = 65535;

}  // namespace

void TraceStore::Clear() {
  info_ = TraceInfo();
  summary_ = TraceSummary();
  tracks_.clear();
  events_.clear();
  metrics_.clear();
  flows_.clear();
  strings_.Clear();
  stacks_.Clear();
  stack_frames_.clear();
  stack_offsets_.assign(1, 0);
  last_name_id_ = last_category_id_ = kNone;
}

void TraceStore::ReserveFor(uint64_t bytes) {
  constexpr uint64_t kMaxEvents = uint64_t{1} << 31;
  const uint64_t events = std::min(bytes / 48 + 1024, kMaxEvents);
  // A store kept from an earlier input keeps its arrays unless they are far too small: a new
  // reservation would move them to fresh pages, each faulted in again.
  auto reserve = [](auto& v, uint64_t n) {
    if (v.capacity() * 2 < n) v.reserve(n);
  };
  reserve(events_, events);
  reserve(flows_, events);
  reserve(metrics_, events / 2);
}

size_t TraceStore::bytes() const {
  return events_.capacity() * sizeof(Event) + metrics_.capacity() * sizeof(StoredMetric) +
         flows_.capacity() * 8 + strings_.bytes() + stacks_.bytes();
}

Status TraceStore::OnBegin(const TraceInfo& info) {
  info_ = info;
  return Status();
}

Status TraceStore::OnTrack(const Track& track) {
  if (track.index >= tracks_.size()) tracks_.resize(track.index + 1);
  StoredTrack& t = tracks_[track.index];
  t.kind = track.kind;
  t.id = track.id;
  t.device = track.device;
  t.name.assign(track.name);
  return Status();
}

Status TraceStore::OnEnd(const TraceSummary& summary) {
  summary_ = summary;
  if (info_.absolute_time || !summary.late_base_ns) return Status();
  // A baseTimeNanoseconds after the events: every event was kept, so all can move.
  const int64_t base = *summary.late_base_ns;
  for (Event& e : events_) {
    if (__builtin_add_overflow(e.start_ns, base, &e.start_ns) ||
        __builtin_add_overflow(e.end_ns, base, &e.end_ns)) {
      return Status::Error("cannot read '" + name_ + "': baseTimeNanoseconds puts an event out " +
                           "of range");
    }
  }
  info_.absolute_time = true;
  info_.base_ns = base;
  return Status();
}

uint32_t TraceStore::InternStack(std::span<const std::string_view> frames) {
  if (frames.empty()) return kNone;
  stack_key_.clear();
  for (std::string_view f : frames) {
    const auto size = static_cast<uint32_t>(f.size());
    stack_key_.append(reinterpret_cast<const char*>(&size), sizeof size);
    stack_key_.append(f);
  }
  const uint32_t id = stacks_.Intern(stack_key_);
  if (id + 1 == stack_offsets_.size()) {  // a new stack: its frames become strings
    for (std::string_view f : frames) stack_frames_.push_back(strings_.Intern(f));
    stack_offsets_.push_back(static_cast<uint32_t>(stack_frames_.size()));
  }
  return id;
}

uint32_t TraceStore::InternCached(std::string_view s, std::string& last_text, uint32_t& last_id) {
  if (last_id != kNone && s == last_text) return last_id;
  last_text.assign(s);
  last_id = strings_.Intern(s);
  return last_id;
}

Status TraceStore::OnEvent(const TraceEvent& e) {
  if (events_.size() >= kNone - 1) return Status::Error("more than 4 billion events in one trace");
  Event s;
  s.start_ns = e.start_ns;
  s.end_ns = e.end_ns;
  s.name = InternCached(e.name, last_name_, last_name_id_);
  s.category = InternCached(e.category, last_category_, last_category_id_);
  s.track = e.track;
  s.stack = InternStack(e.call_stack);
  s.kind = e.kind;
  s.instant = e.instant;
  s.metrics = static_cast<uint32_t>(metrics_.size());
  s.metric_count = static_cast<uint16_t>(std::min(e.metrics.size(), kMaxMetricsPerEvent));
  for (size_t i = 0; i < s.metric_count; ++i) {
    const Metric& m = e.metrics[i];
    StoredMetric stored;
    stored.name = strings_.Intern(m.name);
    stored.type = m.type;
    switch (m.type) {
      case Metric::Type::kInt: stored.int_value = m.int_value; break;
      case Metric::Type::kUint: stored.uint_value = m.uint_value; break;
      case Metric::Type::kDouble: stored.double_value = m.double_value; break;
      case Metric::Type::kString: stored.text = strings_.Intern(m.text); break;
    }
    metrics_.push_back(stored);
  }
  s.flows = static_cast<uint32_t>(flows_.size());
  s.flows_out = static_cast<uint8_t>(std::min(e.flows_out.size(), kMaxFlowsPerEvent));
  s.flows_in = static_cast<uint8_t>(std::min(e.flows_in.size(), kMaxFlowsPerEvent));
  flows_.insert(flows_.end(), e.flows_out.begin(), e.flows_out.begin() + s.flows_out);
  flows_.insert(flows_.end(), e.flows_in.begin(), e.flows_in.begin() + s.flows_in);
  events_.push_back(s);
  return Status();
}

}  // namespace proton::viewer::traces
