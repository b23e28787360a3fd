// FakeBackend; see fake_backend.h.
#include "core/testing/fake_backend.h"

#include <algorithm>
#include <atomic>

#include "core/runtime/runtime.h"

namespace proton {
namespace {
std::atomic<FakeBackend*> g_current{nullptr};
std::mutex g_fail_mutex;
std::optional<std::string> g_fail_message;
std::atomic<bool> g_last_flush_synchronized{false};
}  // namespace

void FakeBackend::FailNextStart(std::string message) {
  std::lock_guard<std::mutex> lock(g_fail_mutex);
  g_fail_message = std::move(message);
}

BackendRegistration FakeBackend::Registration() {
  return BackendRegistration{
      "fake", [] { return true; },
      []() -> std::unique_ptr<Backend> { return std::make_unique<FakeBackend>(); }};
}

void FakeBackend::Register() { ProcessRuntime().backends().Register(Registration()); }

FakeBackend* FakeBackend::Current() { return g_current.load(); }

DeviceInfo FakeBackend::H200() {
  DeviceInfo info;
  info.type = "CUDA";
  info.arch = "90";
  info.bus_width = 6016;
  info.clock_rate = 1980000;
  info.memory_clock_rate = 3201000;
  info.num_sms = 132;
  return info;
}

Status FakeBackend::Start(BackendSink* sink, std::string_view mode) {
  (void)mode;
  {
    std::lock_guard<std::mutex> lock(g_fail_mutex);
    if (g_fail_message.has_value()) {
      Error failed = Status::Error(*g_fail_message, ErrorKind::kRuntime);
      g_fail_message.reset();
      return failed;
    }
  }
  sink_ = sink;
  g_current.store(this);
  return Status();
}

bool FakeBackend::LastFlushSynchronized() { return g_last_flush_synchronized.load(); }

void FakeBackend::Flush(bool synchronize) {
  g_last_flush_synchronized.store(synchronize);
  ++flush_count_;
  // Like the real flush loop: deliver until nothing submitted is missing (bounded).
  for (int i = 0; i < 100 && !queue_.empty(); ++i) CompleteBuffer();
}

void FakeBackend::Stop() {
  queue_.clear();
  last_correlation_ = 0;
  sink_ = nullptr;
  FakeBackend* self = this;
  g_current.compare_exchange_strong(self, nullptr);
}

std::optional<DeviceInfo> FakeBackend::QueryDevice(uint32_t device_id) {
  for (const auto& [id, info] : devices_) {
    if (id == device_id) return info;
  }
  return H200();
}

void FakeBackend::set_device(uint32_t id, DeviceInfo info) {
  devices_.emplace_back(id, std::move(info));
}

uint64_t FakeBackend::Launch(std::string_view symbol, uint32_t expected_records) {
  uint64_t id = NextCorrelationId();
  sink_->OnLaunchEnter(id, symbol, expected_records);
  sink_->OnLaunchExit(id);
  return id;
}

TimestampFn FakeBackend::Timestamp() const {
  return [] {
    FakeBackend* current = g_current.load();
    return current == nullptr ? 0 : current->clock_ns_.fetch_add(kCpuTick);
  };
}

uint64_t FakeBackend::LaunchAndRun(std::string_view symbol, uint64_t dur_ns, uint32_t stream) {
  uint64_t id = Launch(symbol);
  FakeRecord r;
  r.correlation_id = id;
  r.name = std::string(symbol);
  r.start_ns = clock_ns_.load();
  r.end_ns = r.start_ns + dur_ns;
  r.stream_id = stream;
  clock_ns_ += dur_ns + 1000;
  Queue(std::move(r));
  return id;
}

void FakeBackend::Queue(FakeRecord record) { queue_.push_back(std::move(record)); }

void FakeBackend::CompleteBuffer(const std::vector<size_t>& order) {
  std::vector<size_t> indices = order;
  if (indices.empty()) {
    for (size_t i = 0; i < queue_.size(); ++i) indices.push_back(i);
  }
  uint64_t max_id = 0;
  for (size_t i : indices) {
    const FakeRecord& f = queue_.at(i);
    KernelRecord r;
    r.correlation_id = f.correlation_id;
    r.start_ns = f.start_ns;
    r.end_ns = f.end_ns;
    r.device_id = f.device_id;
    r.stream_id = f.stream_id;
    r.name = f.name;
    r.graph_id = f.graph_id;
    r.graph_node_id = f.graph_node_id;
    sink_->OnKernelRecord(r);
    max_id = std::max(max_id, f.correlation_id);
  }
  std::vector<size_t> sorted = indices;
  std::sort(sorted.rbegin(), sorted.rend());
  for (size_t i : sorted) queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
  sink_->OnBufferCompleted(max_id);
}

void FakeBackend::Drop(uint64_t count) { sink_->OnRecordsLost(RecordLoss::kDropped, count); }

}  // namespace proton
