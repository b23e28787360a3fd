// Benchmarks of the profiler core: scope enter+exit, launch capture, attributing one kernel
// record, and the writers on 1M-node trees / 1M-event traces. See RESULTS.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/correlation/correlator.h"
#include "core/data/trace_data.h"
#include "core/data/tree_data.h"
#include "core/dump/chrome_trace_writer.h"
#include "core/dump/hatchet_writer.h"
#include "core/dump/msgpack_writer.h"
#include "core/dump/perfetto_trace_writer.h"
#include "core/runtime/runtime.h"
#include "core/session/cli_mode.h"
#include "core/session/session_manager.h"
#include "core/testing/fake_backend.h"
#include "proton/proton.h"

namespace proton {
namespace {

int StartSession(const char* backend) {
  ProcessRuntime().sessions().DiscardAll(/*stop_backend=*/true);
  StartOptions o;
  o.name = "/tmp/proton_bench_core";
  o.backend = backend;
  return Start(o)->value();
}

void BM_ScopeEnterExit(benchmark::State& state) {
  StartSession("");
  for (auto _ : state) {
    uint64_t id = NewScopeId();
    EnterScope(id, "matmul_phase");
    benchmark::DoNotOptimize(ExitScope(id, "matmul_phase"));
  }
  ProcessRuntime().sessions().DiscardAll(/*stop_backend=*/true);
}
BENCHMARK(BM_ScopeEnterExit);

void BM_LaunchCapture(benchmark::State& state) {
  StartSession("fake");
  BackendSink* sink = FakeBackend::Current()->sink();
  uint64_t scope = NewScopeId();
  EnterScope(scope, "add_phase");
  uint64_t corr = 0;
  for (auto _ : state) {
    ++corr;
    sink->OnLaunchEnter(corr, "add_kernel", 1);
    sink->OnLaunchExit(corr);
    if ((corr & 4095) == 0) {
      state.PauseTiming();
      ProcessRuntime().sessions().correlator().Reset();
      state.ResumeTiming();
    }
  }
  (void)ExitScope(scope, "add_phase");
  ProcessRuntime().sessions().DiscardAll(/*stop_backend=*/true);
}
BENCHMARK(BM_LaunchCapture);

void BM_AttributeKernelRecord(benchmark::State& state) {
  StartSession("fake");
  BackendSink* sink = FakeBackend::Current()->sink();
  uint64_t scope = NewScopeId();
  EnterScope(scope, "add_phase");
  constexpr uint64_t kBatch = 4096;
  uint64_t next = 1, launched = 0;
  KernelRecord r;
  r.name = "add_kernel";
  r.stream_id = 7;
  for (auto _ : state) {
    if (next > launched) {
      state.PauseTiming();
      for (uint64_t i = 0; i < kBatch; ++i) sink->OnLaunchEnter(++launched, "add_kernel", 1);
      state.ResumeTiming();
    }
    r.correlation_id = next++;
    r.start_ns = r.correlation_id * 10;
    r.end_ns = r.start_ns + 5;
    sink->OnKernelRecord(r);
  }
  (void)ExitScope(scope, "add_phase");
  ProcessRuntime().sessions().DiscardAll(/*stop_backend=*/true);
}
BENCHMARK(BM_AttributeKernelRecord);

// The whole host-side launch path in the steady state (§7.4): enter + exit callbacks and the
// record's attribution, one launch in flight at a time, two kernels alternating under a scope.
void BM_LaunchAndAttribute(benchmark::State& state) {
  StartSession("fake");
  BackendSink* sink = FakeBackend::Current()->sink();
  uint64_t scope = NewScopeId();
  EnterScope(scope, "add_phase");
  const std::string_view names[2] = {"add_kernel", "mul_kernel"};
  KernelRecord r;
  r.stream_id = 7;
  uint64_t corr = 0;
  for (auto _ : state) {
    ++corr;
    std::string_view name = names[corr & 1];
    sink->OnLaunchEnter(corr, name, 1);
    sink->OnLaunchExit(corr);
    r.correlation_id = corr;
    r.name = name;
    r.start_ns = corr * 10;
    r.end_ns = r.start_ns + 5;
    sink->OnKernelRecord(r);
  }
  (void)ExitScope(scope, "add_phase");
  ProcessRuntime().sessions().DiscardAll(/*stop_backend=*/true);
}
BENCHMARK(BM_LaunchAndAttribute);

// 1000 scopes x 1000 kernel leaves with kernel metrics, plus a flexible metric per scope.
TreeData& MillionNodeTree() {
  static TreeData* data = [] {
    auto* d = new TreeData();
    KernelRecord r;
    r.start_ns = 100;
    r.end_ns = 2345;
    for (int s = 0; s < 1000; ++s) {
      NodeRef scope = d->Child(d->Root(), "scope_" + std::to_string(s));
      (void)d->AddMetrics(scope, {{"flops16", 2147483648.0}});
      for (int k = 0; k < 1000; ++k) {
        d->AddKernel(d->Child(scope, "kernel_name_of_typical_length_" + std::to_string(k)), r,
                     false);
      }
    }
    return d;
  }();
  return *data;
}

// The writers stream in 1 MiB chunks to the file; here the chunks are counted and dropped,
// so the numbers are serialisation speed without disk I/O.
void BM_WriteHatchet1M(benchmark::State& state) {
  TreeData& data = MillionNodeTree();
  DeviceTable devices{{0, FakeBackend::H200()}};
  size_t bytes = 0;
  ChunkSink sink = [&bytes](std::string_view chunk) {
    bytes += chunk.size();
    return true;
  };
  WriteOptions options;
  options.chunk_sink = &sink;
  for (auto _ : state) {
    std::string out;
    data.WithLock([&] { WriteHatchet(data, devices, options, out); });
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  state.counters["nodes"] = static_cast<double>(data.tree().size());
}
BENCHMARK(BM_WriteHatchet1M)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_WriteMsgpack1M(benchmark::State& state) {
  TreeData& data = MillionNodeTree();
  DeviceTable devices{{0, FakeBackend::H200()}};
  size_t bytes = 0;
  ChunkSink sink = [&bytes](std::string_view chunk) {
    bytes += chunk.size();
    return true;
  };
  WriteOptions options;
  options.chunk_sink = &sink;
  for (auto _ : state) {
    std::string out;
    data.WithLock([&] { WriteHatchetMsgpack(data, devices, options, out); });
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_WriteMsgpack1M)->Unit(benchmark::kMillisecond)->Iterations(3);

// 1M kernel events on 2 streams; `flows`: each launched by one of 2 threads inside one of
// 1000 scopes, so the file also holds CPU lanes, scope events and a flow pair per kernel.
// Times are CLOCK_REALTIME-sized (CUPTI's clock): the .chrome_trace writes them relative to
// the first one, the .perfetto_trace as they are.
TraceData* MakeTrace1M(bool flows) {
  constexpr uint64_t kRealtimeBase = 1'750'000'000'000'000'000ull;
  auto* d = new TraceData();
  std::vector<NodeRef> leaves;
  for (int s = 0; s < 100; ++s) {
    NodeRef scope = d->Child(d->Root(), "scope_" + std::to_string(s));
    leaves.push_back(d->Child(scope, "kernel_name_of_typical_length"));
  }
  KernelRecord r;
  ScopeEventRef scope;
  for (uint64_t i = 0; i < 1'000'000; ++i) {
    r.correlation_id = i + 1;
    r.start_ns = kRealtimeBase + i * 2345;
    r.end_ns = r.start_ns + 1000 + i % 997;
    r.stream_id = i % 3 == 0 ? 13 : 7;
    if (flows) {
      if (i % 1000 == 0) scope = d->BeginScope(1 + i % 2, "scope", r.start_ns - 900);
      r.launch_thread = 1 + i % 2;
      r.launch_ns = r.start_ns - 500;
      if (i % 1000 == 999) d->EndScope(scope, r.start_ns);
    }
    d->AddKernel(leaves[i % leaves.size()], r, false);
  }
  return d;
}

// Made once per kind and shared by the JSON and Perfetto benchmarks.
TraceData* Trace1M(bool flows) {
  static TraceData* plain = MakeTrace1M(false);
  static TraceData* with_flows = nullptr;
  if (flows && with_flows == nullptr) with_flows = MakeTrace1M(true);
  return flows ? with_flows : plain;
}

using TraceWriterFn = void (*)(const TraceData&, std::string&, const ChunkSink*);
void ChromeWriter(const TraceData& d, std::string& out, const ChunkSink* sink) {
  WriteChromeTrace(d, out, sink);
}
void PerfettoWriter(const TraceData& d, std::string& out, const ChunkSink* sink) {
  WritePerfettoTrace(d, out, sink);
}

// The file's size; the chunks are counted and dropped (no disk I/O in the numbers).
size_t WriteTraceBench(benchmark::State& state, TraceData* data, TraceWriterFn writer) {
  size_t bytes = 0;
  ChunkSink sink = [&bytes](std::string_view chunk) {
    bytes += chunk.size();
    return true;
  };
  for (auto _ : state) {
    std::string out;
    data->WithLock([&] { writer(*data, out, &sink); });
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  return bytes / std::max<size_t>(1, state.iterations());
}

size_t ChromeTraceSize(TraceData* data) {
  size_t bytes = 0;
  ChunkSink sink = [&bytes](std::string_view chunk) {
    bytes += chunk.size();
    return true;
  };
  std::string out;
  data->WithLock([&] { WriteChromeTrace(*data, out, &sink); });
  return bytes;
}

void BM_WriteChromeTrace1M(benchmark::State& state) {
  WriteTraceBench(state, Trace1M(false), ChromeWriter);
}
BENCHMARK(BM_WriteChromeTrace1M)->Unit(benchmark::kMillisecond)->Iterations(3);
void BM_WriteChromeTrace1MFlows(benchmark::State& state) {
  WriteTraceBench(state, Trace1M(true), ChromeWriter);
}
BENCHMARK(BM_WriteChromeTrace1MFlows)->Unit(benchmark::kMillisecond)->Iterations(3);

// The same traces as .perfetto_trace; `size_vs_json`: its size over the .chrome_trace's.
void PerfettoBench(benchmark::State& state, bool flows) {
  TraceData* data = Trace1M(flows);
  size_t size = WriteTraceBench(state, data, PerfettoWriter);
  state.counters["MB"] = static_cast<double>(size) / 1e6;
  state.counters["size_vs_json"] =
      static_cast<double>(size) / static_cast<double>(ChromeTraceSize(data));
}
void BM_WritePerfettoTrace1M(benchmark::State& state) { PerfettoBench(state, false); }
BENCHMARK(BM_WritePerfettoTrace1M)->Unit(benchmark::kMillisecond)->Iterations(3);
void BM_WritePerfettoTrace1MFlows(benchmark::State& state) { PerfettoBench(state, true); }
BENCHMARK(BM_WritePerfettoTrace1MFlows)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace proton

int main(int argc, char** argv) {
  proton::FakeBackend::Register();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
