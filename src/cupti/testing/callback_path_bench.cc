// Host cost per launch of our CUPTI callback path, without a GPU: the fake CUPTI emits
// cuLaunchKernel enter/exit callbacks into the real CuptiBackend and the real core (sessions,
// correlation, tree or trace data), and records are delivered and applied at the flush. It
// separates the backend's own cost (no-op sink) from the core's per-launch path, which is what
// the §7.4 overhead budget is spent on.
//   Usage: proton_callback_path_bench [launches [bytes [only]]]
// With `bytes`, every launch is followed by writing that many bytes of other memory (one
// store per cache line), as the Python launch path between two launches does: our per-launch
// state then has to come back from farther caches, which warm loops never show. `only` runs
// one configuration: `none` (callbacks emitted, nobody subscribed), `backend` or a session
// label; under `valgrind --tool=cachegrind` the difference of two such runs' cache misses is
// what one layer costs per launch (bench/core/RESULTS.md).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "core/backend/registry.h"
#include "core/runtime/runtime.h"
#include "cupti/cupti_backend.h"
#include "cupti/testing/fake_cupti.h"
#include "proton/proton.h"

namespace {

using proton::cupti::CuptiBackend;
namespace fake = proton::cupti::testing;

// A mangled name as long as torch's elementwise kernels, so hashing costs what it costs there.
const char* const kKernel =
    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEESt5arrayIPcLm3EEEEv"
    "iT0_T1_";

class NullSink : public proton::BackendSink {
 public:
  void OnLaunchEnter(uint64_t, std::string_view, uint32_t) override {}
  void OnLaunchExit(uint64_t) override {}
  void OnKernelRecord(const proton::KernelRecord&) override {}
  void OnBufferCompleted(uint64_t) override {}
  void OnRecordsLost(proton::RecordLoss, uint64_t) override {}
  void OnNvtxPush(std::string_view) override {}
  void OnNvtxPop() override {}
};

// CPU time of the calling thread: steadier than wall time on a shared machine.
double ThreadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}
double g_last_cpu_ns = 0;       // CPU ns per launch of the last LaunchLoopNs
std::vector<char> g_pollution;  // written between launches (see the usage above)

void Pollute() {
  for (size_t i = 0; i < g_pollution.size(); i += 64) g_pollution[i] = static_cast<char>(i);
}

double LaunchLoopNs(uint32_t first_id, int n) {
  double cpu0 = ThreadCpuNs();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    uint32_t id = first_id + static_cast<uint32_t>(i);
    fake::EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, id, kKernel);
    fake::EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, id, kKernel);
    Pollute();
  }
  auto t1 = std::chrono::steady_clock::now();
  g_last_cpu_ns = (ThreadCpuNs() - cpu0) / n;
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
}

void QueueRecords(uint32_t first_id, int n) {
  for (int i = 0; i < n; ++i) {
    uint32_t id = first_id + static_cast<uint32_t>(i);
    fake::Fake().pending.push_back(
        {fake::MakeKernel(id, uint64_t{1000} * id, uint64_t{1000} * id + 700, kKernel), 0});
  }
}

std::string g_only = "all";  // the configuration to run (see the usage above)

bool Wanted(const char* label) { return g_only == "all" || g_only == label; }

void RunSession(const char* label, const char* context, const char* data, int scopes, int n) {
  if (!Wanted(label)) return;
  fake::ResetFake();
  proton::StartOptions options;
  options.name = std::string("/tmp/proton_callback_bench_") + label;
  options.context = context;
  options.data = data;
  options.backend = "cupti";
  auto started = proton::Start(options);
  if (!started.ok() || !started.value().has_value()) {
    std::fprintf(stderr, "%s: start failed\n", label);
    return;
  }
  for (int s = 0; s < scopes; ++s) proton::EnterScope(proton::NewScopeId(), "scope");
  LaunchLoopNs(1, 1000);  // warm-up: nodes created, maps sized
  double per_launch = LaunchLoopNs(1001, n);
  double launch_cpu = g_last_cpu_ns;
  QueueRecords(1, n + 1000);
  auto t0 = std::chrono::steady_clock::now();
  (void)proton::Deactivate(std::nullopt, /*flushing=*/true);
  auto t1 = std::chrono::steady_clock::now();
  double per_record = std::chrono::duration<double, std::nano>(t1 - t0).count() / (n + 1000);
  (void)proton::Finalize(std::nullopt);
  std::printf("%-28s %8.1f ns/launch (%6.1f CPU)  %8.1f ns/record (flush)\n", label, per_launch,
              launch_cpu, per_record);
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 200000;
  g_pollution.assign(argc > 2 ? static_cast<size_t>(std::atoll(argv[2])) : 0, 1);
  if (argc > 3) g_only = argv[3];
  {
    double cpu0 = ThreadCpuNs();
    for (int i = 0; i < n; ++i) Pollute();
    std::printf("%-28s %8.1f ns/launch (CPU), included in every line below\n",
                "writing the other memory", (ThreadCpuNs() - cpu0) / n);
  }
  // Route the process runtime's "cupti" backend to the real CuptiBackend over the fake tables
  // (the runtime's own registration comes before the built-in one).
  proton::ProcessRuntime().backends().Register(
      proton::BackendRegistration{"cupti", [] { return true; },
                                  [] {
                                    return std::unique_ptr<proton::Backend>(new CuptiBackend(
                                        fake::FakeDriverApi(), fake::FakeCuptiApi()));
                                  }});
  if (Wanted("none")) {
    fake::ResetFake();  // no subscriber: EmitLaunch finds no callback
    LaunchLoopNs(1, 1000);
    double wall = LaunchLoopNs(1001, n);
    std::printf("%-28s %8.1f ns/launch (%6.1f CPU)\n", "nobody subscribed", wall, g_last_cpu_ns);
  }
  if (Wanted("backend")) {
    fake::ResetFake();
    NullSink sink;
    CuptiBackend backend(fake::FakeDriverApi(), fake::FakeCuptiApi());
    if (!backend.Start(&sink, "").ok()) return 1;
    LaunchLoopNs(1, 1000);
    double wall = LaunchLoopNs(1001, n);
    std::printf("%-28s %8.1f ns/launch (%6.1f CPU)\n", "backend only (no-op sink)", wall,
                g_last_cpu_ns);
    backend.Stop();
  }
  for (int round = 0; round < 2; ++round) {  // the first session also pays one-time costs
    RunSession("shadow_tree", "shadow", "tree", 0, n);
    RunSession("shadow_tree_2_scopes", "shadow", "tree", 2, n);
    RunSession("shadow_trace", "shadow", "trace", 0, n);
  }
  return 0;
}
