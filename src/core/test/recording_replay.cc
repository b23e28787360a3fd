// Recording replay for tests; see recording_replay.h.
#include "core/test/recording_replay.h"

#include <charconv>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/backend/fake_backend.h"
#include "core/correlation/correlator.h"
#include "core/session/session_manager.h"
#include "core/test/json_reader.h"
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
      for (const Json& e : v["vd"].array) x.push_back(e.type == Json::Type::kInt ? double(e.i) : e.d);
      out.emplace_back(name, x);
    }
  }
  return out;
}

std::optional<int> OptInt(const Json& v) {
  if (v.type == Json::Type::kNull) return std::nullopt;
  return static_cast<int>(v.i);
}

bool IsSinkEvent(const std::string& ev) {
  return ev == "record" || ev == "buffer" || ev == "lost";
}

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

}  // namespace

Status ReplayRecording(const std::string& jsonl,
                       const std::function<std::string(const std::string&)>& rename) {
  std::vector<Json> events;
  std::istringstream in(jsonl);
  std::string line;
  std::map<uint32_t, DeviceInfo> devices;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    Json j;
    std::string error;
    if (!ParseJson(line, &j, &error)) return Status::Error("bad recording line: " + error);
    if (j["ev"].s == "device") {
      DeviceInfo d;
      d.type = j["type"].s;
      d.arch = j["arch"].s;
      d.bus_width = static_cast<uint64_t>(j["bus_width"].i);
      d.clock_rate = static_cast<uint64_t>(j["clock_rate"].i);
      d.memory_clock_rate = static_cast<uint64_t>(j["memory_clock_rate"].i);
      d.num_sms = static_cast<uint64_t>(j["num_sms"].i);
      devices[static_cast<uint32_t>(j["id"].i)] = d;
      continue;
    }
    events.push_back(std::move(j));
  }
  FakeBackend::Register();
  std::map<int64_t, std::unique_ptr<Worker>> workers;
  Correlator& sink = SessionManager::Get().correlator();
  Status result;
  std::vector<bool> done(events.size(), false);
  // Scope and op ids come from this process's counter: sessions ignore ids older than
  // themselves, so recorded ids are mapped to fresh ones at first sight.
  std::map<int64_t, uint64_t> ids;
  auto id_of = [&](const Json& e) {
    auto [it, inserted] = ids.try_emplace(e["id"].i, 0);
    if (inserted) it->second = NewScopeId();
    return it->second;
  };

  auto apply = [&](const Json& e) {
    const std::string& ev = e["ev"].s;
    auto& worker = workers[e["tid"].i];
    if (!worker) worker = std::make_unique<Worker>();
    worker->Run([&] {
      if (ev == "start") {
        StartOptions o;
        if (const Json* n = e.Find("name")) o.name = rename(n->s);
        o.context = e["context"].s;
        o.data = e["data"].s;
        o.backend = "fake";
        o.mode = e["mode"].s;
        auto r = Start(o);
        if (!r.ok()) result = r.status();
        if (FakeBackend* fake = FakeBackend::Current()) {
          for (const auto& [id, info] : devices) fake->set_device(id, info);
        }
      } else if (ev == "activate") {
        (void)Activate(OptInt(e["session"]));
      } else if (ev == "deactivate") {
        (void)Deactivate(OptInt(e["session"]), e["flushing"].b);
      } else if (ev == "finalize") {
        Status st = Finalize(OptInt(e["session"]), e["format"].s);
        if (!st.ok()) result = st;
      } else if (ev == "enter_scope") {
        EnterScope(id_of(e), e["name"].s);
      } else if (ev == "exit_scope") {
        (void)ExitScope(id_of(e), e["name"].s);
      } else if (ev == "add_metrics") {
        (void)AddMetrics(id_of(e), ParseMetrics(e["metrics"]));
      } else if (ev == "enter_state") {
        EnterState(e["name"].s);
      } else if (ev == "exit_state") {
        ExitState();
      } else if (ev == "enter_op") {
        EnterOp(id_of(e), e["name"].s);
      } else if (ev == "exit_op") {
        ExitOp(id_of(e));
      } else if (ev == "add_op_metrics") {
        (void)AddOpMetrics(id_of(e), ParseMetrics(e["metrics"]));
      } else if (ev == "clear") {
        (void)Clear(static_cast<int>(e["session"].i), static_cast<int>(e["phase"].i),
                    e["up_to"].b);
      } else if (ev == "advance_phase") {
        (void)AdvancePhase(static_cast<int>(e["session"].i));
      } else if (ev == "launch_enter") {
        sink.OnLaunchEnter(static_cast<uint64_t>(e["corr"].i), e["name"].s,
                           static_cast<uint32_t>(e["expected"].i));
      } else if (ev == "launch_exit") {
        sink.OnLaunchExit(static_cast<uint64_t>(e["corr"].i));
      } else if (ev == "record") {
        KernelRecord r;
        r.correlation_id = static_cast<uint64_t>(e["corr"].i);
        r.start_ns = static_cast<uint64_t>(e["start"].i);
        r.end_ns = static_cast<uint64_t>(e["end"].i);
        r.device_id = static_cast<uint32_t>(e["device"].i);
        r.stream_id = static_cast<uint32_t>(e["stream"].i);
        r.name = e["name"].s;
        r.graph_id = static_cast<uint32_t>(e["graph"].i);
        r.graph_node_id = static_cast<uint64_t>(e["node"].i);
        sink.OnKernelRecord(r);
      } else if (ev == "pc_samples") {
        ReplayPcSamples(sink, e);
      } else if (ev == "buffer") {
        sink.OnBufferCompleted(static_cast<uint64_t>(e["max"].i));
      } else if (ev == "lost") {
        sink.OnRecordsLost(static_cast<RecordLoss>(e["why"].i), static_cast<uint64_t>(e["count"].i));
      } else if (ev == "nvtx_push") {
        sink.OnNvtxPush(e["message"].s);
      } else if (ev == "nvtx_pop") {
        sink.OnNvtxPop();
      } else if (ev == "graph_captured") {
        sink.OnGraphNodeCaptured(static_cast<uint64_t>(e["key"].i), e["name"].s);
      } else if (ev == "graph_released") {
        sink.OnGraphNodeReleased(static_cast<uint64_t>(e["key"].i));
      }
    });
  };

  for (size_t i = 0; i < events.size(); ++i) {
    if (done[i]) continue;
    const std::string& ev = events[i]["ev"].s;
    if (ev == "call_end") continue;
    if (ev == "finalize" || ev == "deactivate") {
      // Records the call's flush delivered were recorded before its call_end: apply them first.
      for (size_t k = i + 1; k < events.size(); ++k) {
        const std::string& inner = events[k]["ev"].s;
        if (inner == "call_end" && events[k]["tid"].i == events[i]["tid"].i) break;
        if (IsSinkEvent(inner)) {
          apply(events[k]);
          done[k] = true;
        }
      }
    }
    apply(events[i]);
  }
  return result;
}

}  // namespace proton::test
