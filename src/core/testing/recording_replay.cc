// Recording replay for tests; see recording_replay.h.
#include "core/testing/recording_replay.h"

#include <charconv>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/correlation/correlator.h"
#include "core/runtime/runtime.h"
#include "core/session/session_manager.h"
#include "core/testing/fake_backend.h"
#include "core/testing/json_reader.h"
#include "proton/proton.h"

namespace proton::test {
namespace {

// A thread that runs posted tasks one at a time; Run() waits for completion.
class Worker {
 public:
  Worker() : thread_([this] { Loop(); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void Run(std::function<void()> task) {
    std::unique_lock<std::mutex> lock(mutex_);
    task_ = std::move(task);
    done_ = false;
    cv_.notify_all();
    cv_.wait(lock, [this] { return done_; });
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      cv_.wait(lock, [this] { return stop_ || task_ != nullptr; });
      if (task_ == nullptr) return;
      auto task = std::move(task_);
      task_ = nullptr;
      lock.unlock();
      task();
      lock.lock();
      done_ = true;
      cv_.notify_all();
    }
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  std::function<void()> task_;
  bool done_ = false;
  bool stop_ = false;
  std::thread thread_;
};

Metrics ParseMetrics(const Json& list) {
  Metrics out;
  for (const Json& pair : list.array) {
    const std::string& name = pair.array.at(0).s;
    const Json& v = pair.array.at(1);
    if (const Json* i = v.Find("i")) {
      out.emplace_back(name, i->i);
    } else if (const Json* d = v.Find("d")) {
      out.emplace_back(name, d->type == Json::Type::kInt ? static_cast<double>(d->i) : d->d);
    } else if (const Json* vi = v.Find("vi")) {
      std::vector<int64_t> x;
      for (const Json& e : vi->array) x.push_back(e.i);
      out.emplace_back(name, x);
    } else {
      std::vector<double> x;
      for (const Json& e : v["vd"].array)
        x.push_back(e.type == Json::Type::kInt ? double(e.i) : e.d);
      out.emplace_back(name, x);
    }
  }
  return out;
}

std::optional<int> OptInt(const Json& v) {
  if (v.type == Json::Type::kNull) return std::nullopt;
  return static_cast<int>(v.i);
}

bool IsSinkEvent(const std::string& ev) { return ev == "record" || ev == "buffer" || ev == "lost"; }

// A "pc_samples" line (Correlator::OnPcSamples): sample k is f<k>, s<k> and c<k>.
void ReplayPcSamples(BackendSink& sink, const Json& e) {
  size_t n = static_cast<size_t>(e["n"].i);
  std::vector<PcSample> samples(n);
  for (size_t k = 0; k < n; ++k) {
    std::string index = std::to_string(k);
    samples[k].function = e["f" + index].s;
    samples[k].source = e["s" + index].s;
    std::string_view counters = e["c" + index].s;
    for (size_t c = 0; c < samples[k].counters.size() && !counters.empty(); ++c) {
      size_t comma = counters.find(',');
      std::string_view field = counters.substr(0, comma);
      std::from_chars(field.data(), field.data() + field.size(), samples[k].counters[c]);
      counters = comma == std::string_view::npos ? std::string_view() : counters.substr(comma + 1);
    }
  }
  sink.OnPcSamples(static_cast<uint64_t>(e["corr"].i), samples);
}

DeviceInfo ParseDevice(const Json& line) {
  DeviceInfo device;
  device.type = line["type"].s;
  device.arch = line["arch"].s;
  device.bus_width = static_cast<uint64_t>(line["bus_width"].i);
  device.clock_rate = static_cast<uint64_t>(line["clock_rate"].i);
  device.memory_clock_rate = static_cast<uint64_t>(line["memory_clock_rate"].i);
  device.num_sms = static_cast<uint64_t>(line["num_sms"].i);
  return device;
}

KernelRecord ParseKernelRecord(const Json& event) {
  KernelRecord record;
  record.correlation_id = static_cast<uint64_t>(event["corr"].i);
  record.start_ns = static_cast<uint64_t>(event["start"].i);
  record.end_ns = static_cast<uint64_t>(event["end"].i);
  record.device_id = static_cast<uint32_t>(event["device"].i);
  record.stream_id = static_cast<uint32_t>(event["stream"].i);
  record.name = event["name"].s;
  record.graph_id = static_cast<uint32_t>(event["graph"].i);
  record.graph_node_id = static_cast<uint64_t>(event["node"].i);
  return record;
}

// Replays a recording's events, each on a thread standing for the recorded thread id.
class Replayer {
 public:
  explicit Replayer(const std::function<std::string(const std::string&)>& rename)
      : rename_(rename), sink_(ProcessRuntime().sessions().correlator()) {}

  // Splits the recording into device lines (kept aside) and events.
  Status Read(const std::string& jsonl) {
    std::istringstream in(jsonl);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      Json parsed;
      std::string error;
      if (!ParseJson(line, &parsed, &error)) return Status::Error("bad recording line: " + error);
      if (parsed["ev"].s == "device") {
        devices_[static_cast<uint32_t>(parsed["id"].i)] = ParseDevice(parsed);
        continue;
      }
      events_.push_back(std::move(parsed));
    }
    return Status();
  }

  Status Run() {
    std::vector<bool> done(events_.size(), false);
    for (size_t index = 0; index < events_.size(); ++index) {
      if (done[index]) continue;
      const std::string& event = events_[index]["ev"].s;
      if (event == "call_end") continue;
      if (event == "finalize" || event == "deactivate") {
        // Records the call's flush delivered were recorded before its call_end: apply them first.
        for (size_t later = index + 1; later < events_.size(); ++later) {
          const std::string& inner = events_[later]["ev"].s;
          if (inner == "call_end" && events_[later]["tid"].i == events_[index]["tid"].i) break;
          if (IsSinkEvent(inner)) {
            Apply(events_[later]);
            done[later] = true;
          }
        }
      }
      Apply(events_[index]);
    }
    return result_;
  }

 private:
  // Scope and op ids come from this process's counter: sessions ignore ids older than
  // themselves, so recorded ids are mapped to fresh ones at first sight.
  uint64_t IdOf(const Json& event) {
    auto [found, inserted] = ids_.try_emplace(event["id"].i, 0);
    if (inserted) found->second = NewScopeId();
    return found->second;
  }

  void Apply(const Json& event) {
    std::unique_ptr<Worker>& worker = workers_[event["tid"].i];
    if (!worker) worker = std::make_unique<Worker>();
    worker->Run([&] {
      if (!ApplySessionEvent(event) && !ApplyScopeEvent(event)) ApplySinkEvent(event);
    });
  }

  void StartSession(const Json& event) {
    StartOptions options;
    if (const Json* name = event.Find("name")) options.name = rename_(name->s);
    options.context = event["context"].s;
    options.data = event["data"].s;
    options.backend = "fake";
    options.mode = event["mode"].s;
    auto started = Start(options);
    if (!started.ok()) result_ = started.status();
    if (FakeBackend* fake = FakeBackend::Current()) {
      for (const auto& [id, info] : devices_) fake->set_device(id, info);
    }
  }

  // Session calls of the API; false when `event` is not one.
  bool ApplySessionEvent(const Json& event) {
    const std::string& kind = event["ev"].s;
    if (kind == "start") {
      StartSession(event);
    } else if (kind == "activate") {
      (void)Activate(OptInt(event["session"]));
    } else if (kind == "deactivate") {
      (void)Deactivate(OptInt(event["session"]), event["flushing"].b);
    } else if (kind == "finalize") {
      Status finalized = Finalize(OptInt(event["session"]), event["format"].s);
      if (!finalized.ok()) result_ = finalized;
    } else if (kind == "clear") {
      (void)Clear(static_cast<int>(event["session"].i), static_cast<int>(event["phase"].i),
                  event["up_to"].b);
    } else if (kind == "advance_phase") {
      (void)AdvancePhase(static_cast<int>(event["session"].i));
    } else {
      return false;
    }
    return true;
  }

  // Scope, state, op and metric calls of the API; false when `event` is not one.
  bool ApplyScopeEvent(const Json& event) {
    const std::string& kind = event["ev"].s;
    if (kind == "enter_scope") {
      EnterScope(IdOf(event), event["name"].s);
    } else if (kind == "exit_scope") {
      (void)ExitScope(IdOf(event), event["name"].s);
    } else if (kind == "add_metrics") {
      (void)AddMetrics(IdOf(event), ParseMetrics(event["metrics"]));
    } else if (kind == "enter_state") {
      EnterState(event["name"].s);
    } else if (kind == "exit_state") {
      ExitState();
    } else if (kind == "enter_op") {
      EnterOp(IdOf(event), event["name"].s);
    } else if (kind == "exit_op") {
      ExitOp(IdOf(event));
    } else if (kind == "add_op_metrics") {
      (void)AddOpMetrics(IdOf(event), ParseMetrics(event["metrics"]));
    } else {
      return false;
    }
    return true;
  }

  // What the backend delivers to the correlator; unknown events are ignored.
  void ApplySinkEvent(const Json& event) {
    const std::string& kind = event["ev"].s;
    if (kind == "launch_enter") {
      sink_.OnLaunchEnter(static_cast<uint64_t>(event["corr"].i), event["name"].s,
                          static_cast<uint32_t>(event["expected"].i));
    } else if (kind == "launch_exit") {
      sink_.OnLaunchExit(static_cast<uint64_t>(event["corr"].i));
    } else if (kind == "record") {
      sink_.OnKernelRecord(ParseKernelRecord(event));
    } else if (kind == "pc_samples") {
      ReplayPcSamples(sink_, event);
    } else if (kind == "buffer") {
      sink_.OnBufferCompleted(static_cast<uint64_t>(event["max"].i));
    } else if (kind == "lost") {
      sink_.OnRecordsLost(static_cast<RecordLoss>(event["why"].i),
                          static_cast<uint64_t>(event["count"].i));
    } else if (kind == "nvtx_push") {
      sink_.OnNvtxPush(event["message"].s);
    } else if (kind == "nvtx_pop") {
      sink_.OnNvtxPop();
    } else if (kind == "graph_captured") {
      sink_.OnGraphNodeCaptured(static_cast<uint64_t>(event["key"].i), event["name"].s);
    } else if (kind == "graph_released") {
      sink_.OnGraphNodeReleased(static_cast<uint64_t>(event["key"].i));
    }
  }

  const std::function<std::string(const std::string&)>& rename_;
  Correlator& sink_;
  std::vector<Json> events_;
  std::map<uint32_t, DeviceInfo> devices_;
  // Destroyed before the maps above it are: a worker's thread never outlives the data.
  std::map<int64_t, std::unique_ptr<Worker>> workers_;
  std::map<int64_t, uint64_t> ids_;
  Status result_;
};

}  // namespace

Status ReplayRecording(const std::string& jsonl,
                       const std::function<std::string(const std::string&)>& rename) {
  Replayer replayer(rename);
  PROTON_RETURN_IF_ERROR(replayer.Read(jsonl));
  FakeBackend::Register();
  return replayer.Run();
}

}  // namespace proton::test
