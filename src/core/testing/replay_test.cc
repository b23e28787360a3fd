// Replays, through the fake backend, the launches that the GPU workloads of tests/gpu/workloads
// make (profiler.md §7.3 A-D and features.py), and checks that the trees equal the Triton 3.6
// reference profiles in paths, names, counts and metric keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <thread>

#include "core/testing/fake_backend.h"
#include "core/testing/json_reader.h"
#include "core/testing/test_util.h"
#include "proton/proton.h"

namespace proton {
namespace {

using test::Json;

// Finds the first node name in `doc` containing `needle` (kernel names of the H200 run).
std::string KernelName(const Json& doc, std::string_view needle) {
  std::vector<const Json*> stack{&doc.array.at(0)};
  while (!stack.empty()) {
    const Json* n = stack.back();
    stack.pop_back();
    const std::string& name = (*n)["frame"]["name"].s;
    if (name.find(needle) != std::string::npos) return name;
    for (const Json& c : (*n)["children"].array) stack.push_back(&c);
  }
  ADD_FAILURE() << "no kernel like " << needle;
  return std::string(needle);
}

Json Ref(const std::string& file) { return test::ParseOrDie(test::ReadFile(test::RefPath(file))); }

class ReplayTest : public testing::Test {
 protected:
  void SetUp() override { test::ResetCore(); }
  void TearDown() override { test::ResetCore(); }
  int StartFake(const std::string& context = "shadow", const std::string& data = "tree") {
    StartOptions o;
    path_ = test::TempDir() + "/replay";
    o.name = path_;
    o.backend = "fake";
    o.context = context;
    o.data = data;
    auto r = Start(o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    fake_ = FakeBackend::Current();
    return r->value_or(-1);
  }
  void Run(const std::string& kernel) { fake_->LaunchAndRun(kernel, 1000 + (n_++ % 7)); }
  // A Triton launch under the launch hook: metadata state, then an op around the launch.
  void HookedLaunch(const std::string& op_name, const std::string& kernel, int64_t n,
                    int64_t bytes_per_elem) {
    EnterState("__proton_launch_metadata:" + kernel);
    ExitState();
    uint64_t op = NewScopeId();
    EnterOp(op, op_name);
    ASSERT_TRUE(AddOpMetrics(op, {{"flops32", n}, {"bytes", bytes_per_elem * n}}).ok());
    Run(kernel);
    ExitOp(op);
  }
  uint64_t Enter(const std::string& name, const Metrics& metrics = {}) {
    uint64_t id = NewScopeId();
    EnterScope(id, name);
    if (!metrics.empty()) {
      EXPECT_TRUE(AddMetrics(id, metrics).ok());
    }
    return id;
  }
  void Exit(uint64_t id, const std::string& name) { ASSERT_TRUE(ExitScope(id, name).ok()); }
  Json Finish(int id) {
    fake_->CompleteBuffer();
    return test::SessionJson(id);
  }
  FakeBackend* fake_ = nullptr;
  std::string path_;
  int n_ = 0;
};

// §7.3 A: workload.py 200, shadow context.
TEST_F(ReplayTest, WorkloadShadowMatchesRefShadow) {
  Json ref = Ref("ref_shadow.hatchet");
  std::string rng_f = KernelName(ref, "normal_and_transformIffP");
  std::string rng_h = KernelName(ref, "normal_and_transformIN3c104HalfEfP");
  std::string nvjet = KernelName(ref, "nvjet");
  int id = StartFake();
  Run(rng_f);
  Run(rng_f);
  Run(rng_h);
  Run(rng_h);
  for (int i = 0; i < 2; ++i) Run("add_kernel");
  for (int i = 0; i < 200; ++i) {
    uint64_t a = Enter("add_phase");
    Run("add_kernel");
    Exit(a, "add_phase");
    uint64_t m = Enter("matmul_phase", {{"flops16", int64_t{2} * 1024 * 1024 * 1024}});
    Run(nvjet);
    Exit(m, "matmul_phase");
  }
  Json ours = Finish(id);
  EXPECT_EQ(test::ShapeOf(ours), test::ShapeOf(ref));
  EXPECT_EQ((*test::NodeAt(ours, {"matmul_phase"}))["metrics"]["flops16"].d, 429496729600.0);
}

// §7.3 C: workload.py 20 with the Triton launch hook.
TEST_F(ReplayTest, WorkloadHookMatchesRefHook) {
  Json ref = Ref("ref_hook.hatchet");
  std::string rng_f = KernelName(ref, "normal_and_transformIffP");
  std::string rng_h = KernelName(ref, "normal_and_transformIN3c104HalfEfP");
  std::string nvjet = KernelName(ref, "nvjet");
  int id = StartFake();
  for (const std::string& k : {rng_f, rng_f, rng_h, rng_h}) Run(k);
  const int64_t n = 1 << 20;
  for (int i = 0; i < 2; ++i) HookedLaunch("add_1048576", "add_kernel", n, 12);
  for (int i = 0; i < 20; ++i) {
    uint64_t a = Enter("add_phase");
    HookedLaunch("add_1048576", "add_kernel", n, 12);
    Exit(a, "add_phase");
    uint64_t m = Enter("matmul_phase", {{"flops16", int64_t{2} * 1024 * 1024 * 1024}});
    Run(nvjet);
    Exit(m, "matmul_phase");
  }
  Json ours = Finish(id);
  EXPECT_EQ(test::ShapeOf(ours), test::ShapeOf(ref));
  const Json& add = (*test::NodeAt(ours, {"add_phase", "add_1048576"}))["metrics"];
  EXPECT_EQ(add["bytes"].i, 251658240);
  EXPECT_EQ(add["flops32"].d, 20971520.0);  // coerced to float (§1.8)
}

// §7.3 D: workload.py 20, trace data: the same call stacks in the same order, one stream.
TEST_F(ReplayTest, WorkloadTraceMatchesRefTrace) {
  Json ref = test::ParseOrDie(test::ReadFile(test::RefPath("ref_trace.chrome_trace")));
  std::vector<std::string> ref_stacks;
  for (const Json& e : ref["traceEvents"].array) {
    std::string s;
    for (const Json& f : e["args"]["call_stack"].array) s += f.s + "/";
    ref_stacks.push_back(s);
  }
  const auto& events = ref["traceEvents"].array;
  int id = StartFake("shadow", "trace");
  // Replays the reference's own launch sequence: scope = the middle of each call stack.
  for (const Json& e : events) {
    const auto& stack = e["args"]["call_stack"].array;
    std::vector<std::pair<uint64_t, std::string>> open;
    for (size_t i = 1; i + 1 < stack.size(); ++i) open.emplace_back(Enter(stack[i].s), stack[i].s);
    fake_->LaunchAndRun(stack.back().s, 2000, 7);
    for (auto it = open.rbegin(); it != open.rend(); ++it) Exit(it->first, it->second);
  }
  ASSERT_TRUE(Finalize(id).ok());
  std::string text = test::ReadFile(path_ + ".chrome_trace");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  Json ours = test::ParseOrDie(text);
  std::vector<std::string> our_stacks;
  std::vector<Json> kernels;
  for (const Json& e : ours["traceEvents"].array) {
    if (const Json* cat = e.Find("cat"); cat != nullptr && cat->s == "kernel") kernels.push_back(e);
  }
  int64_t gpu_lane = -1;  // the tid of "GPU Stream 7"
  for (const Json& e : ours["traceEvents"].array) {
    if (e["ph"].s == "M" && e["name"].s == "thread_name" && e["args"]["name"].s == "GPU Stream 7") {
      gpu_lane = e["tid"].i;
    }
  }
  for (const Json& e : kernels) {
    std::string s;
    for (const Json& f : e["args"]["call_stack"].array) s += f.s + "/";
    our_stacks.push_back(s);
    std::vector<std::string> keys;
    for (const auto& [k, v] : e.object) keys.push_back(k);
    EXPECT_EQ(keys,
              (std::vector<std::string>{"args", "cat", "dur", "name", "ph", "pid", "tid", "ts"}));
    EXPECT_EQ(e["tid"].i, gpu_lane);
  }
  EXPECT_EQ(events.size(), 46u);
  EXPECT_EQ(our_stacks, ref_stacks);
  // The trace starts at the first CPU event (a scope or launch), just before the first kernel.
  EXPECT_GT(kernels[0]["ts"].d, 0.0);
}

TEST_F(ReplayTest, FeatureScopeMetricsMatchesRef) {
  Json ref = Ref("ref_scopemetrics.hatchet");
  std::string k1 = KernelName(ref, "execute_kernel__5x_cublas");
  std::string k2 = KernelName(ref, "split_k_kernel__5x_cublas");
  int id = StartFake();
  uint64_t c =
      Enter("custom", {{"flops16", 1000.0}, {"my_metric", int64_t{3}}, {"ex (exc)", int64_t{7}}});
  Run(k1);
  Run(k2);
  Exit(c, "custom");
  uint64_t t = Enter("cpu_timed");
  Run(k1);
  Run(k2);
  ASSERT_TRUE(AddMetrics(t, {{"cpu_time (ns)(exc)", int64_t{229992}}}).ok());
  Exit(t, "cpu_timed");
  EXPECT_EQ(test::ShapeOf(Finish(id)), test::ShapeOf(ref));
}

TEST_F(ReplayTest, FeatureStateMatchesRef) {
  Json ref = Ref("ref_state.hatchet");
  std::string k1 = KernelName(ref, "execute_kernel__5x_cublas");
  std::string k2 = KernelName(ref, "split_k_kernel__5x_cublas");
  int id = StartFake();
  uint64_t step = Enter("step");
  EnterState("fwd");
  Run(k1);
  Run(k2);
  Run("scale");
  ExitState();
  EnterState("bwd");
  Run(k1);
  Run(k2);
  ExitState();
  Exit(step, "step");
  EXPECT_EQ(test::ShapeOf(Finish(id)), test::ShapeOf(ref));
}

std::map<std::string, int64_t> CountsByLeaf(const Json& doc) {
  std::map<std::string, int64_t> out;
  std::vector<const Json*> stack{&doc.array.at(0)};
  while (!stack.empty()) {
    const Json* n = stack.back();
    stack.pop_back();
    if (const Json* c = (*n)["metrics"].Find("count"); c && n != &doc.array[0]) {
      out[(*n)["frame"]["name"].s] += c->i;
    }
    for (const Json& ch : (*n)["children"].array) stack.push_back(&ch);
  }
  return out;
}

TEST_F(ReplayTest, FeatureSessionsMatchesRef) {
  Json ref0 = Ref("ref_sessions_0.hatchet");
  Json ref1 = Ref("ref_sessions_1.hatchet");
  std::string k1 = KernelName(ref0, "execute_kernel__5x_cublas");
  std::string k2 = KernelName(ref0, "split_k_kernel__5x_cublas");
  int s0 = StartFake();
  Run(k1);
  Run(k2);
  StartOptions o;
  o.name = test::TempDir() + "/replay_1";
  o.backend = "fake";
  o.context = "python";
  int s1 = Start(o)->value();
  Run("scale");
  ASSERT_TRUE(Deactivate(s0).ok());
  Run(k1);
  Run(k2);
  ASSERT_TRUE(Activate(s0).ok());
  Run("scale");
  fake_->CompleteBuffer();
  EXPECT_EQ(test::ShapeOf(test::SessionJson(s0)), test::ShapeOf(ref0));
  EXPECT_EQ(CountsByLeaf(test::SessionJson(s1)), CountsByLeaf(ref1));
}

TEST_F(ReplayTest, FeatureThreadsMatchesRef) {
  Json ref = Ref("ref_threads.hatchet");
  std::string k1 = KernelName(ref, "execute_kernel__5x_cublas");
  std::string k2 = KernelName(ref, "split_k_kernel__5x_cublas");
  int id = StartFake();
  uint64_t m = Enter("main");
  // The fake's launch counter is not thread-safe: the workers run one after the other, each
  // on its own thread, as separate threads with their own stacks.
  for (int t = 0; t < 2; ++t) {
    std::thread worker([&, t] {
      std::string name = "thread_" + std::to_string(t);
      uint64_t s = Enter(name);
      for (int i = 0; i < 5; ++i) {
        Run(k1);
        Run(k2);
      }
      Exit(s, name);
    });
    worker.join();
  }
  Run(k1);
  Run(k2);
  Exit(m, "main");
  EXPECT_EQ(test::ShapeOf(Finish(id)), test::ShapeOf(ref));
}

TEST_F(ReplayTest, FeatureNvtxMatchesRef) {
  Json ref = Ref("ref_nvtx.hatchet");
  std::string k1 = KernelName(ref, "execute_kernel__5x_cublas");
  std::string k2 = KernelName(ref, "split_k_kernel__5x_cublas");
  int id = StartFake();
  fake_->sink()->OnNvtxPush("nvtx_outer");
  Run(k1);
  Run(k2);
  fake_->sink()->OnNvtxPush("nvtx_inner");
  Run("scale");
  fake_->sink()->OnNvtxPop();
  fake_->sink()->OnNvtxPop();
  EXPECT_EQ(test::ShapeOf(Finish(id)), test::ShapeOf(ref));
}

TEST_F(ReplayTest, FeatureGraphMatchesRef) {
  Json ref = Ref("ref_graph.hatchet");
  std::string k1 = KernelName(ref, "execute_kernel__5x_cublas");
  std::string k2 = KernelName(ref, "split_k_kernel__5x_cublas");
  std::string fill = KernelName(ref, "FillFunctor");
  int id = StartFake();
  for (int i = 0; i < 2; ++i) {  // warm-up on a side stream
    HookedLaunch("scale_65536", "scale", 65536, 8);
    Run(k1);
    Run(k2);
  }
  uint64_t cap = Enter("capture");
  Run(fill);
  Run(fill);
  // Capture: the op opens (its metrics land on capture/scale_65536), the launch only creates a
  // graph node; so does the matmul.
  uint64_t op = NewScopeId();
  EnterOp(op, "scale_65536");
  ASSERT_TRUE(AddOpMetrics(op, {{"flops32", int64_t{65536}}, {"bytes", int64_t{524288}}}).ok());
  fake_->sink()->OnGraphNodeCaptured(101, "scale");
  ExitOp(op);
  fake_->sink()->OnGraphNodeCaptured(102, k1);
  fake_->sink()->OnGraphNodeCaptured(103, k2);
  Exit(cap, "capture");
  uint64_t rep = Enter("replay");
  for (int i = 0; i < 5; ++i) {
    uint64_t corr = fake_->NextCorrelationId();
    fake_->sink()->OnLaunchEnter(corr, "", 3);
    fake_->sink()->OnLaunchExit(corr);
    uint64_t t = 5'000'000 + static_cast<uint64_t>(i) * 100'000;
    fake_->Queue(FakeRecord{corr, "scale", t, t + 1000, 0, 7, 9, 101});
    fake_->Queue(FakeRecord{corr, k1, t + 2000, t + 12000, 0, 7, 9, 102});
    fake_->Queue(FakeRecord{corr, k2, t + 13000, t + 16000, 0, 7, 9, 103});
  }
  Exit(rep, "replay");
  EXPECT_EQ(test::ShapeOf(Finish(id)), test::ShapeOf(ref));
}

}  // namespace
}  // namespace proton
