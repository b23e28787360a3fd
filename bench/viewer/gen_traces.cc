// The trace files of one job, for the --export .perfetto_trace benchmark (viewer.md §11.17):
//
//   proton_viewer_gen_traces [--format json|perfetto] [--events M] [--streams S] [--seed X]
//                            RANKS OUT_DIR
//
// writes OUT_DIR/run.rank<r>.chrome_trace (or .perfetto_trace) for r = 0..RANKS-1, each with M
// kernel events in our profiler's layout (formats.md §6 for JSON, §7 for Perfetto): two CPU
// threads with one scope per 8 kernels and a launch per kernel, S GPU streams, 240 kernel
// names (a third long mangled C++ names), call stacks 3 to 6 frames deep, flops and bytes on
// a third of the kernels, one launch->kernel flow per kernel; each rank's clock starts
// 0-50 us after rank 0's. Deterministic for a seed.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "util/proto_wire.h"

namespace {

constexpr uint64_t kBase = 1764800000000000000ull;  // 2025-12-03, ns
constexpr int kThreads = 2;

struct Kernel {
  uint64_t start, end;  // ns
  uint64_t launch;      // ns
  int stream, thread, name, stack;
  bool metrics;
};

struct Job {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> stacks;  // frames from ROOT, without the kernel
};

Job MakeJob(std::mt19937_64& rng) {
  Job job;
  for (int i = 0; i < 240; ++i) {
    if (i % 3 == 0) {
      job.names.push_back("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_" +
                          std::to_string(i) + "_GLOBAL__N_117CUDAFunctorOnSelfIfEEEEvi");
    } else {
      job.names.push_back("triton_poi_fused_add_mul_" + std::to_string(i));
    }
  }
  for (int i = 0; i < 64; ++i) {
    std::vector<std::string> frames = {"ROOT"};
    const int depth = 2 + static_cast<int>(rng() % 4);
    for (int d = 0; d < depth; ++d) frames.push_back("layer" + std::to_string((i * 7 + d) % 24));
    job.stacks.push_back(frames);
  }
  return job;
}

// Kernels stream by stream, each stream in start order; launches 3-20 us before their start.
std::vector<Kernel> MakeKernels(std::mt19937_64& rng, uint64_t events, int streams) {
  std::vector<Kernel> kernels;
  kernels.reserve(events);
  for (int s = 0; s < streams; ++s) {
    uint64_t t = 100000 + static_cast<uint64_t>(s) * 1000;
    for (uint64_t i = s; i < events; i += streams) {
      Kernel k;
      k.start = t;
      k.end = t + 2000 + rng() % 30000;
      k.launch = k.start - 3000 - rng() % 17000;
      k.stream = s;
      k.thread = static_cast<int>(i % kThreads);
      k.name = static_cast<int>(rng() % 240);
      k.stack = static_cast<int>(rng() % 64);
      k.metrics = rng() % 3 == 0;
      kernels.push_back(k);
      t = k.end + 500 + rng() % 5000;
    }
  }
  return kernels;
}

struct Scope {
  uint64_t start, end;
  int thread;
};

// One scope per 8 kernels, half of each thread's share of the trace's span, back to back.
std::vector<Scope> MakeScopes(const std::vector<Kernel>& kernels) {
  uint64_t span = 0;
  for (const Kernel& k : kernels) span = std::max(span, k.end);
  const uint64_t per_thread = std::max<uint64_t>(1, kernels.size() / 8 / kThreads);
  const uint64_t step = std::max<uint64_t>(2, span / per_thread);
  std::vector<Scope> scopes;
  for (int t = 0; t < kThreads; ++t) {
    for (uint64_t j = 0; j < per_thread; ++j) scopes.push_back({j * step, j * step + step / 2, t});
  }
  return scopes;
}

// ---- JSON (formats.md §6) ----

class JsonWriter {
 public:
  explicit JsonWriter(std::FILE* f) : f_(f) {}
  ~JsonWriter() { Flush(); }
  void Add(const std::string& s) {
    if (!first_) out_ += ',';
    first_ = false;
    out_ += s;
    if (out_.size() > (1 << 20)) Flush();
  }
  void Raw(const std::string& s) { out_ += s; }
  void Flush() {
    std::fwrite(out_.data(), 1, out_.size(), f_);
    out_.clear();
  }

 private:
  std::FILE* f_;
  std::string out_;
  bool first_ = true;
};

std::string Us(uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
  return buf;
}

void WriteJsonKernels(JsonWriter& w, const Job& job, const std::vector<Kernel>& kernels) {
  for (const Kernel& k : kernels) {
    std::string e = R"({"args":{"call_stack":[)";
    for (const std::string& f : job.stacks[k.stack]) e += "\"" + f + "\",";
    e += "\"" + job.names[k.name] + "\"]";
    if (k.metrics) {
      e += R"(,"metrics":{"bytes":)" + std::to_string((k.end - k.start) * 64) + R"(,"flops":)" +
           std::to_string((k.end - k.start) * 1000) + "}";
    }
    e += R"(},"cat":"kernel","dur":)" + Us(k.end - k.start) + R"(,"name":")" + job.names[k.name] +
         R"(","ph":"X","pid":0,"tid":)" + std::to_string(kThreads + k.stream) + R"(,"ts":)" +
         Us(k.start) + "}";
    w.Add(e);
  }
}

void WriteJson(std::FILE* f, const Job& job, const std::vector<Kernel>& kernels, int streams,
               uint64_t base) {
  JsonWriter w(f);
  w.Raw(R"({"baseTimeNanoseconds":)" + std::to_string(base) +
        R"(,"displayTimeUnit":"us","traceEvents":[)");
  w.Add(R"({"args":{"name":"Trace"},"name":"process_name","ph":"M","pid":0})");
  for (int lane = 0; lane < kThreads + streams; ++lane) {
    const std::string name = lane < kThreads ? "CPU Thread " + std::to_string(4000 + lane)
                                             : "GPU Stream " + std::to_string(lane - kThreads + 7);
    w.Add(R"({"args":{"name":")" + name + R"("},"name":"thread_name","ph":"M","pid":0,"tid":)" +
          std::to_string(lane) + "}");
  }
  WriteJsonKernels(w, job, kernels);
  for (const Scope& s : MakeScopes(kernels)) {
    w.Add(R"({"cat":"scope","dur":)" + Us(s.end - s.start) + R"(,"name":"step","ph":"X",)" +
          R"("pid":0,"tid":)" + std::to_string(s.thread) + R"(,"ts":)" + Us(s.start) + "}");
  }
  for (size_t i = 0; i < kernels.size(); ++i) {
    const Kernel& k = kernels[i];
    const std::string id = std::to_string(i + 1);
    w.Add(R"({"cat":"flow","id":)" + id + R"(,"name":"launch->kernel","ph":"s","pid":0,"tid":)" +
          std::to_string(k.thread) + R"(,"ts":)" + Us(k.launch) + "}");
    w.Add(R"({"bp":"e","cat":"flow","id":)" + id +
          R"(,"name":"launch->kernel","ph":"f","pid":0,"tid":)" +
          std::to_string(kThreads + k.stream) + R"(,"ts":)" + Us(k.start) + "}");
  }
  w.Raw("]}\n");
}

// ---- Perfetto (formats.md §7) ----

class PerfettoWriter {
 public:
  PerfettoWriter(std::FILE* f, const Job& job) : f_(f), job_(job) {}
  ~PerfettoWriter() { Flush(); }

  void Head(uint64_t base, int lanes) {
    {
      Packet p(*this);
      proton::proto::NestedMessage snapshot(out_, 6);
      for (const auto& [id, t] : {std::pair{1u, base}, std::pair{6u, uint64_t{1000}}}) {
        proton::proto::NestedMessage clock(out_, 1);
        proton::proto::AppendUint(out_, 1, id);
        proton::proto::AppendUint(out_, 2, t);
      }
      proton::proto::AppendUint(out_, 2, 1);
    }
    {
      Packet p(*this);
      Sequence(3);
      {
        proton::proto::NestedMessage defaults(out_, 59);
        proton::proto::AppendUint(out_, 58, 1);
      }
      proton::proto::NestedMessage interned(out_, 12);
      const char* categories[] = {"scope", "kernel", "launch"};
      for (uint64_t i = 0; i < 3; ++i) {
        proton::proto::NestedMessage e(out_, 1);
        proton::proto::AppendUint(out_, 1, i + 1);
        proton::proto::AppendBytes(out_, 2, categories[i]);
      }
    }
    {
      Packet p(*this);
      proton::proto::NestedMessage track(out_, 60);
      proton::proto::AppendUint(out_, 1, 1);
      proton::proto::AppendBytes(out_, 2, "Trace");
      {
        proton::proto::NestedMessage process(out_, 3);
        proton::proto::AppendUint(out_, 1, 4000);
        proton::proto::AppendBytes(out_, 6, "Trace");
      }
      proton::proto::AppendUint(out_, 11, 3);
    }
    for (int k = 0; k < lanes; ++k) {
      Packet p(*this);
      proton::proto::NestedMessage track(out_, 60);
      proton::proto::AppendUint(out_, 1, 2 + k);
      proton::proto::AppendUint(out_, 5, 1);
      proton::proto::AppendBytes(out_, 2,
                                 k < kThreads ? "CPU Thread " + std::to_string(4000 + k)
                                              : "GPU Stream " + std::to_string(k - kThreads + 7));
      proton::proto::AppendUint(out_, 12, k);
    }
  }

  // type 1 begin, 2 end, 3 instant; category 1 scope, 2 kernel, 3 launch.
  void Event(uint64_t t, int type, uint64_t track, int name, int category, const Kernel* k,
             uint64_t flow_out, uint64_t flow_in) {
    const uint64_t name_iid = type == 2 ? 0 : Intern(2, NameText(name));
    // The frames between ROOT and the kernel (formats.md §7.5): stacks[k] starts with ROOT.
    std::vector<std::pair<uint64_t, uint64_t>> frames;  // (annotation name iid, string iid)
    if (k != nullptr) {
      const auto& stack = job_.stacks[k->stack];
      for (size_t i = 1; i < stack.size(); ++i) {
        frames.emplace_back(Intern(3, "call_stack_" + std::to_string(i - 1)), Intern(29, stack[i]));
      }
    }
    const uint64_t bytes_iid = k && k->metrics ? Intern(3, "metric.bytes") : 0;
    const uint64_t flops_iid = k && k->metrics ? Intern(3, "metric.flops") : 0;
    FlushInterned();
    Packet p(*this);
    proton::proto::AppendUint(out_, 8, t);
    Sequence(2);
    proton::proto::NestedMessage e(out_, 11);
    proton::proto::AppendUint(out_, 9, type);
    proton::proto::AppendUint(out_, 11, track);
    if (type == 2) return;
    proton::proto::AppendUint(out_, 10, name_iid);
    proton::proto::AppendUint(out_, 3, category);
    for (const auto& [n, s] : frames) {
      proton::proto::NestedMessage a(out_, 4);
      proton::proto::AppendUint(out_, 1, n);
      proton::proto::AppendUint(out_, 17, s);
    }
    if (bytes_iid != 0) {
      for (const auto& [n, v] : {std::pair{bytes_iid, (k->end - k->start) * 64},
                                 std::pair{flops_iid, (k->end - k->start) * 1000}}) {
        proton::proto::NestedMessage a(out_, 4);
        proton::proto::AppendUint(out_, 1, n);
        proton::proto::AppendInt(out_, 4, static_cast<int64_t>(v));
      }
    }
    if (flow_out != 0) proton::proto::AppendUint(out_, 36, flow_out);
    if (flow_in != 0) proton::proto::AppendUint(out_, 42, flow_in);
  }

  std::string NameText(int name) const { return name < 0 ? "step" : job_.names[name]; }

 private:
  struct Packet {
    explicit Packet(PerfettoWriter& w) : w_(w), m_(w.out_, 1) {}
    ~Packet() {
      m_.Close();
      if (w_.out_.size() > (1 << 20)) w_.Flush();
    }
    PerfettoWriter& w_;
    proton::proto::NestedMessage m_;
  };
  void Sequence(uint32_t flags) {
    proton::proto::AppendUint(out_, 10, 1);
    proton::proto::AppendUint(out_, 13, flags);
  }
  // The iid of `text` in InternedData's `field`, new ones written before the next packet.
  uint64_t Intern(uint32_t field, const std::string& text) {
    auto& table = interned_[field];
    auto it = table.find(text);
    if (it != table.end()) return it->second;
    const uint64_t iid = table.size() + 1;
    table.emplace(text, iid);
    pending_.push_back({field, iid, text});
    return iid;
  }
  void FlushInterned() {
    if (pending_.empty()) return;
    Packet p(*this);
    Sequence(2);
    proton::proto::NestedMessage d(out_, 12);
    for (const auto& [field, iid, text] : pending_) {
      proton::proto::NestedMessage e(out_, field);
      proton::proto::AppendUint(out_, 1, iid);
      proton::proto::AppendBytes(out_, 2, text);
    }
    pending_.clear();
  }
  void Flush() {
    std::fwrite(out_.data(), 1, out_.size(), f_);
    out_.clear();
  }

  std::FILE* f_;
  const Job& job_;
  std::string out_;
  std::map<uint32_t, std::map<std::string, uint64_t>> interned_;
  std::vector<std::tuple<uint32_t, uint64_t, std::string>> pending_;
};

void WritePerfetto(std::FILE* f, const Job& job, const std::vector<Kernel>& kernels, int streams,
                   uint64_t base) {
  PerfettoWriter w(f, job);
  w.Head(base, kThreads + streams);
  const std::vector<Scope> scopes = MakeScopes(kernels);
  for (int t = 0; t < kThreads; ++t) {  // CPU lanes: scopes and launches, in time order
    struct Item {
      uint64_t time;
      int scope;      // index in scopes, or -1
      size_t kernel;  // a launch
    };
    std::vector<Item> items;
    for (size_t j = 0; j < scopes.size(); ++j) {
      if (scopes[j].thread == t) items.push_back({scopes[j].start, static_cast<int>(j), 0});
    }
    for (size_t i = 0; i < kernels.size(); ++i) {
      if (kernels[i].thread == t) items.push_back({kernels[i].launch, -1, i});
    }
    std::stable_sort(items.begin(), items.end(),
                     [](const Item& a, const Item& b) { return a.time < b.time; });
    const Scope* open = nullptr;
    for (const Item& it : items) {
      if (open != nullptr && open->end <= it.time) {
        w.Event(base + open->end, 2, 2 + t, 0, 0, nullptr, 0, 0);
        open = nullptr;
      }
      if (it.scope >= 0) {
        open = &scopes[it.scope];
        w.Event(base + open->start, 1, 2 + t, -1, 1, nullptr, 0, 0);
      } else {
        w.Event(base + it.time, 3, 2 + t, kernels[it.kernel].name, 3, nullptr, it.kernel + 1, 0);
      }
    }
    if (open != nullptr) w.Event(base + open->end, 2, 2 + t, 0, 0, nullptr, 0, 0);
  }
  for (int s = 0; s < streams; ++s) {
    for (size_t i = 0; i < kernels.size(); ++i) {
      const Kernel& k = kernels[i];
      if (k.stream != s) continue;
      w.Event(base + k.start, 1, 2 + kThreads + s, k.name, 2, &k, 0, i + 1);
      w.Event(base + k.end, 2, 2 + kThreads + s, 0, 0, nullptr, 0, 0);
    }
  }
}

}  // namespace

namespace {

int Usage() {
  std::fprintf(stderr,
               "usage: proton_viewer_gen_traces [--format json|perfetto] [--events M] "
               "[--streams S] [--seed X] RANKS OUT_DIR\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string format = "json";
  uint64_t events = 1000000, seed = 1;
  int streams = 4;
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 < argc && a == "--format")
      format = argv[++i];
    else if (i + 1 < argc && a == "--events")
      events = std::strtoull(argv[++i], nullptr, 10);
    else if (i + 1 < argc && a == "--streams")
      streams = std::atoi(argv[++i]);
    else if (i + 1 < argc && a == "--seed")
      seed = std::strtoull(argv[++i], nullptr, 10);
    else
      rest.push_back(a);
  }
  if (rest.size() != 2 || (format != "json" && format != "perfetto") || streams < 1) return Usage();
  const int ranks = std::atoi(rest[0].c_str());
  for (int r = 0; r < ranks; ++r) {
    std::mt19937_64 rng(seed * 1000003 + static_cast<uint64_t>(r));
    const Job job = MakeJob(rng);
    const std::vector<Kernel> kernels = MakeKernels(rng, events, streams);
    const uint64_t base = kBase + static_cast<uint64_t>(r) * 50000 / (ranks > 1 ? ranks - 1 : 1);
    const std::string path = rest[1] + "/run.rank" + std::to_string(r) +
                             (format == "json" ? ".chrome_trace" : ".perfetto_trace");
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) {
      std::perror(path.c_str());
      return 1;
    }
    if (format == "json") {
      WriteJson(f, job, kernels, streams, base);
    } else {
      WritePerfetto(f, job, kernels, streams, base);
    }
    if (std::fclose(f) != 0) {
      std::perror(path.c_str());
      return 1;
    }
  }
  return 0;
}
