// Phases and periodic flushing on the fake backend (profiler.md §3.11): what advance_phase
// costs, whether launching threads slow down while a part is written, and whether a long run
// of periodic flushing keeps its memory flat. Numbers and commands: bench/core/RESULTS.md.
//
//   phase_bench advance [n]                 ns per advance_phase
//   phase_bench during-write [nodes]        launch cost while a large part is written vs. not
//   phase_bench soak [phases] [launches] [step_us]   RSS every 1,000 phases, part writes
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/session/phase_writer.h"
#include "core/testing/fake_backend.h"
#include "proton/proton.h"

namespace proton {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

long RssKiB() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  statm >> pages >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

std::string MakeDir() {
  std::string dir =
      (std::filesystem::temp_directory_path() / ("proton-phase-bench-" + std::to_string(getpid())))
          .string();
  std::filesystem::create_directories(dir);
  return dir;
}

int StartFake(const std::string& name, const std::string& mode) {
  FakeBackend::Register();
  StartOptions o;
  o.name = name;
  o.backend = "fake";
  o.mode = mode;
  auto r = Start(o);
  if (!r.ok() || !r->has_value()) {
    std::fprintf(stderr, "phase_bench: start failed: %s\n", r.status().message().c_str());
    std::exit(1);
  }
  return **r;
}

// One step of a training-like loop: `launches` kernels over 4 scopes and 8 kernel names.
void Step(FakeBackend* fake, int launches) {
  static const char* kScopes[] = {"forward", "backward", "optimizer", "allreduce"};
  static const char* kKernels[] = {"gemm_a", "gemm_b", "softmax", "layernorm",
                                   "gelu",   "adam",   "copy",    "nccl_allreduce"};
  for (int scope = 0; scope < 4; ++scope) {
    uint64_t id = NewScopeId();
    EnterScope(id, kScopes[scope]);
    for (int i = scope; i < launches; i += 4) fake->LaunchAndRun(kKernels[i % 8], 1000);
    (void)ExitScope(id, kScopes[scope]);
  }
}

int Advance(int n) {
  std::string dir = MakeDir();
  for (const char* mode : {"", "periodic_flushing"}) {
    int s = StartFake(dir + "/adv", mode);
    FakeBackend* fake = FakeBackend::Current();
    Step(fake, 4);
    auto begin = Clock::now();
    for (int i = 0; i < n; ++i) (void)AdvancePhase(s);
    double ns = Seconds(begin) * 1e9 / n;
    fake->CompleteBuffer();
    (void)Finalize(s);
    std::printf("advance_phase (%s): %.0f ns per call over %d calls\n", *mode ? mode : "no mode",
                ns, n);
  }
  std::filesystem::remove_all(dir);
  return 0;
}

// The median of per-batch ns-per-launch figures.
double MedianLaunchNs(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// ns per launch over one batch of 1,000 launches; their records are delivered after the
// batch, untimed, as the backend's buffer thread would.
double TimeBatch(FakeBackend* fake) {
  auto begin = Clock::now();
  for (int i = 0; i < 1000; ++i) fake->LaunchAndRun("k", 1000);
  double ns = Seconds(begin) * 1e9 / 1000;
  fake->CompleteBuffer();
  return ns;
}

int DuringWrite(int nodes) {
  std::string dir = MakeDir();
  int s = StartFake(dir + "/big", "periodic_flushing");
  FakeBackend* fake = FakeBackend::Current();
  for (int i = 0; i < nodes; ++i) {  // a wide phase 0: one kernel under each of `nodes` scopes
    uint64_t id = NewScopeId();
    std::string name = "scope_" + std::to_string(i);
    EnterScope(id, name);
    fake->LaunchAndRun("k", 1000);
    (void)ExitScope(id, name);
  }
  uint64_t outer = NewScopeId();
  EnterScope(outer, "steady");
  for (int i = 0; i < 20; ++i) TimeBatch(fake);  // warm the launch path
  (void)AdvancePhase(s);
  fake->CompleteBuffer();  // phase 0 completes: the writer starts on it
  std::vector<double> during;
  while (PhaseWriter::Stats().parts == 0) during.push_back(TimeBatch(fake));
  std::vector<double> after;
  for (size_t i = 0; i < std::max<size_t>(during.size(), 200); ++i)
    after.push_back(TimeBatch(fake));
  PartWriteStats stats = PhaseWriter::Stats();
  std::printf("part of %d nodes: %.1f MB written in %.1f ms on the writer thread\n", nodes,
              stats.bytes / 1e6, stats.seconds * 1e3);
  auto worst = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
  std::printf(
      "launch (OnLaunchEnter+Exit, fake): %.1f ns median, %.1f ns worst batch during the "
      "write (%zu batches of 1000); %.1f ns median, %.1f ns worst after it\n",
      MedianLaunchNs(during), worst(during), during.size(), MedianLaunchNs(after), worst(after));
  (void)ExitScope(outer, "steady");
  fake->Flush(true);
  (void)Finalize(s);
  std::filesystem::remove_all(dir);
  return 0;
}

// `step_us` > 0: each step takes at least that long, as a GPU step of `launches` kernels does;
// 0: steps as fast as the fake allows (then the writer may fall behind, holding phases).
int Soak(int phases, int launches, int step_us) {
  std::string dir = MakeDir();
  int s = StartFake(dir + "/soak", "periodic_flushing");
  FakeBackend* fake = FakeBackend::Current();
  auto begin = Clock::now();
  std::printf("%8s %10s %10s %10s\n", "phase", "rss_kib", "parts", "elapsed_s");
  for (int p = 1; p <= phases; ++p) {
    auto step_end = Clock::now() + std::chrono::microseconds(step_us);
    Step(fake, launches);
    (void)AdvancePhase(s);
    fake->CompleteBuffer();
    std::this_thread::sleep_until(step_end);
    if (p % 1000 == 0) {
      std::printf("%8d %10ld %10llu %10.1f\n", p, RssKiB(),
                  static_cast<unsigned long long>(PhaseWriter::Stats().parts), Seconds(begin));
      std::fflush(stdout);
      // The parts already checked are not needed: keep the disk use of a long soak small.
      for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".hatchet") continue;  // not a part being written
        std::error_code ec;
        std::filesystem::remove(entry.path(), ec);
      }
    }
  }
  (void)Finalize(s);
  PartWriteStats stats = PhaseWriter::Stats();
  std::printf(
      "writer thread: %llu parts, %.1f MB in %.2f s (%.0f µs per part, %.0f MB/s); "
      "finalize wrote the rest; total %.1f s\n",
      static_cast<unsigned long long>(stats.parts), stats.bytes / 1e6, stats.seconds,
      stats.parts ? stats.seconds * 1e6 / stats.parts : 0.0,
      stats.seconds > 0 ? stats.bytes / 1e6 / stats.seconds : 0.0, Seconds(begin));
  std::filesystem::remove_all(dir);
  return 0;
}

}  // namespace
}  // namespace proton

int main(int argc, char** argv) {
  std::string what = argc > 1 ? argv[1] : "";
  auto arg = [&](int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; };
  if (what == "advance") return proton::Advance(arg(2, 10000));
  if (what == "during-write") return proton::DuringWrite(arg(2, 200000));
  if (what == "soak") return proton::Soak(arg(2, 10000), arg(3, 1000), arg(4, 0));
  std::fprintf(stderr,
               "usage: phase_bench advance [n] | during-write [nodes] | soak [phases] "
               "[launches] [step_us]\n");
  return 2;
}
