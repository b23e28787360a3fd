// Context sources (profiler.md §3.4-§3.6, N13-N14): scope stacks on 8 threads, D9 inheritance,
// state frames, balance errors, python context through a provider, metrics on scopes.
#include "core/context/thread_context.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "core/context/python_frames.h"
#include "core/testing/fake_backend.h"
#include "core/testing/test_util.h"
#include "proton/proton.h"

namespace proton {
namespace {

using test::NodeAt;
using test::SessionJson;

class ContextTest : public testing::Test {
 protected:
  void SetUp() override { test::ResetCore(); }
  void TearDown() override {
    test::ResetCore();
    SetPythonFrameProvider(nullptr);
  }
  int StartFake(const std::string& context = "shadow") {
    StartOptions o;
    o.name = test::TempDir() + "/p";
    o.backend = "fake";
    o.context = context;
    auto r = Start(o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    fake_ = FakeBackend::Current();
    return r->value_or(-1);
  }
  // A launch whose record arrives at once, as the fake does from any thread.
  void LaunchNow(const char* name) {
    uint64_t corr = next_corr_.fetch_add(1);
    fake_->sink()->OnLaunchEnter(corr, name, 1);
    fake_->sink()->OnLaunchExit(corr);
    KernelRecord r;
    r.correlation_id = corr;
    r.start_ns = 1;
    r.end_ns = 2;
    r.name = name;
    fake_->sink()->OnKernelRecord(r);
  }
  int64_t Count(const test::Json& doc, const std::vector<std::string>& path) {
    const test::Json* n = NodeAt(doc, path);
    if (n == nullptr) return -1;
    const test::Json* c = (*n)["metrics"].Find("count");
    return c ? c->i : 0;
  }
  FakeBackend* fake_ = nullptr;
  std::atomic<uint64_t> next_corr_{1};
};

TEST_F(ContextTest, EightThreadsOfScopes) {
  int id = StartFake();
  std::vector<std::thread> threads;
  threads.reserve(8);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::string name = "thread_" + std::to_string(t);
      for (int i = 0; i < 200; ++i) {
        uint64_t s = NewScopeId();
        EnterScope(s, name);
        uint64_t inner = NewScopeId();
        EnterScope(inner, "inner");
        ASSERT_TRUE(AddMetrics(inner, {{"n", int64_t{1}}}).ok());
        LaunchNow("k");
        ASSERT_TRUE(ExitScope(inner, "inner").ok());
        ASSERT_TRUE(ExitScope(s, name).ok());
      }
    });
  }
  for (auto& th : threads) th.join();
  test::Json doc = SessionJson(id);
  for (int t = 0; t < 8; ++t) {
    std::string name = "thread_" + std::to_string(t);
    EXPECT_EQ(Count(doc, {name, "inner", "k"}), 200);
    EXPECT_EQ((*NodeAt(doc, {name, "inner"}))["metrics"]["n"].i, 200);
  }
}

TEST_F(ContextTest, ThreadWithoutScopesFollowsMainThreadCurrentStack) {
  int id = StartFake();
  std::atomic<int> step{0};
  std::thread helper([&] {
    while (step.load() != 1) std::this_thread::yield();
    LaunchNow("bwd");  // main is inside A
    step.store(2);
    while (step.load() != 3) std::this_thread::yield();
    LaunchNow("bwd");  // main is inside B now
    uint64_t own = NewScopeId();
    EnterScope(own, "own");  // based on main's stack at this moment: B
    LaunchNow("k");
    ASSERT_TRUE(ExitScope(own, "own").ok());
    step.store(4);
  });
  uint64_t a = NewScopeId();
  EnterScope(a, "A");
  step.store(1);
  while (step.load() != 2) std::this_thread::yield();
  ASSERT_TRUE(ExitScope(a, "A").ok());
  uint64_t b = NewScopeId();
  EnterScope(b, "B");
  step.store(3);
  while (step.load() != 4) std::this_thread::yield();
  ASSERT_TRUE(ExitScope(b, "B").ok());
  helper.join();
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {"A", "bwd"}), 1);
  EXPECT_EQ(Count(doc, {"B", "bwd"}), 1);
  EXPECT_EQ(Count(doc, {"B", "own", "k"}), 1);
}

TEST_F(ContextTest, StateFramePlacement) {
  int id = StartFake();
  uint64_t t0 = NewScopeId(), t1 = NewScopeId();
  EnterState("s");
  EnterScope(t0, "test0");
  EnterScope(t1, "test1");
  ASSERT_TRUE(AddMetrics(t1, {{"a", 1.0}}).ok());
  LaunchNow("k");
  ASSERT_TRUE(ExitScope(t1, "test1").ok());
  ASSERT_TRUE(ExitScope(t0, "test0").ok());
  ExitState();
  LaunchNow("k2");
  test::Json doc = SessionJson(id);
  EXPECT_EQ((*NodeAt(doc, {"test0", "test1", "s"}))["metrics"]["a"].d, 1.0);
  EXPECT_EQ(Count(doc, {"test0", "test1", "s", "k"}), 1);
  EXPECT_EQ(Count(doc, {"k2"}), 1);
}

TEST_F(ContextTest, ScopeMetricsSumPropertiesOverwriteErrorsExact) {
  int id = StartFake();
  for (int i = 0; i < 2; ++i) {
    uint64_t s = NewScopeId();
    EnterScope(s, "m");
    ASSERT_TRUE(
        AddMetrics(s, {{"a", 1.0}, {"p (pty)", int64_t{i}}, {"v", std::vector<double>{1, 2}}})
            .ok());
    ASSERT_TRUE(ExitScope(s, "m").ok());
  }
  uint64_t s = NewScopeId();
  EnterScope(s, "m");
  EXPECT_EQ(AddMetrics(s, {{"a", int64_t{1}}}).message(),
            "Metric value type mismatch for valueId 0 (a): current=double, new=int64_t");
  EXPECT_EQ(AddMetrics(s, {{"v", std::vector<double>{1}}}).message(),
            "Vector metric size mismatch for valueId 2 (v): current=2, new=1");
  ASSERT_TRUE(ExitScope(s, "m").ok());
  test::Json doc = SessionJson(id);
  const test::Json& m = (*NodeAt(doc, {"m"}))["metrics"];
  EXPECT_EQ(m["a"].d, 2.0);
  EXPECT_EQ(m["p"].i, 1);
  EXPECT_EQ(m["v"].array[1].d, 4.0);
  EXPECT_EQ(doc.array[0]["metrics"].Find("p"), nullptr);
}

TEST_F(ContextTest, UnbalancedExitsAreRuntimeErrors) {
  StartFake();
  uint64_t a = NewScopeId(), b = NewScopeId();
  EXPECT_EQ(ExitScope(a, "a").message(), "Context stack is empty");
  EnterScope(a, "a");
  EnterScope(b, "b");
  Status st = ExitScope(a, "a");
  EXPECT_EQ(st.message(), "Context stack is not balanced");
  EXPECT_EQ(st.kind(), ErrorKind::kRuntime);
  EXPECT_EQ(ExitScope(b, "x").message(), "Context stack is not balanced");
  EXPECT_TRUE(ExitScope(b, "b").ok());
  EXPECT_TRUE(ExitScope(a, "a").ok());
}

TEST_F(ContextTest, ScopesOpenedBeforeASessionAreIgnoredByIt) {
  StartOptions o;
  o.name = test::TempDir() + "/first";
  ASSERT_TRUE(Start(o).ok());
  uint64_t a = NewScopeId();
  EnterScope(a, "a");
  o.name = test::TempDir() + "/second";
  auto second = Start(o);
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(ExitScope(a, "a").ok());
  EXPECT_EQ(ContextDepth(**second), 0);
}

TEST_F(ContextTest, ScopesKeepBalanceWhileDeactivated) {
  int id = StartFake();
  uint64_t a = NewScopeId();
  EnterScope(a, "a");
  ASSERT_TRUE(Deactivate(id).ok());
  uint64_t b = NewScopeId();
  EnterScope(b, "b");
  ASSERT_TRUE(Activate(id).ok());
  LaunchNow("k");  // the node of b is created now, from the names
  ASSERT_TRUE(ExitScope(b, "b").ok());
  ASSERT_TRUE(ExitScope(a, "a").ok());
  EXPECT_EQ(Count(SessionJson(id), {"a", "b", "k"}), 1);
}

void FakeFrames(std::vector<std::string_view>* frames) {
  frames->push_back("/w/workload.py:51@<module>");
  frames->push_back("/w/workload.py:43@main");
}

TEST_F(ContextTest, PythonContextUsesProviderFrames) {
  SetPythonFrameProvider(&FakeFrames);
  int id = StartFake("python");
  uint64_t s = NewScopeId();
  EnterScope(s, "add_phase");  // no frame of its own in the python context
  ASSERT_TRUE(AddMetrics(s, {{"flops16", int64_t{4}}}).ok());
  LaunchNow("add_kernel");
  ASSERT_TRUE(ExitScope(s, "add_phase").ok());
  EXPECT_EQ(ContextDepth(id), 2);
  test::Json doc = SessionJson(id);
  const test::Json* line = NodeAt(doc, {"/w/workload.py:51@<module>", "/w/workload.py:43@main"});
  ASSERT_NE(line, nullptr);
  EXPECT_EQ((*line)["metrics"]["flops16"].d, 4.0);
  EXPECT_EQ(Count(doc, {"/w/workload.py:51@<module>", "/w/workload.py:43@main", "add_kernel"}), 1);
}

// The launch cache must tell apart names alike in length, head, middle and tail (all that a
// cheap fingerprint of the name would look at), and one kernel with and without a state.
TEST_F(ContextTest, LaunchCacheTellsAlikeNamesAndStatesApart) {
  int id = StartFake();
  //                   head (0-7)  |    | middle (16-23) |     | tail (32-39)
  const char* a = "kernel_0_A______________________________";
  const char* b = "kernel_0_B______________________________";
  ASSERT_EQ(std::string_view(a).size(), std::string_view(b).size());
  for (int i = 0; i < 3; ++i) {
    LaunchNow(a);
    LaunchNow(b);
    LaunchNow(b);
    EnterState("phase");
    LaunchNow(a);
    ExitState();
  }
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {a}), 3);
  EXPECT_EQ(Count(doc, {b}), 6);
  EXPECT_EQ(Count(doc, {"phase", a}), 3);
}

// Frames for SwitchingFrames: one address per text (python_frames.h), as the real provider.
const std::string_view kModule = "/w/a.py:1@<module>";
const std::string_view kTrain = "/w/a.py:5@train";
const std::string_view kEval = "/w/a.py:9@valid";  // as long as kTrain
const std::string_view kStep = "/w/a.py:20@step";
std::vector<std::string_view> g_switching_frames;

void SwitchingFrames(std::vector<std::string_view>* frames) {
  frames->assign(g_switching_frames.begin(), g_switching_frames.end());
}

// The core reuses the nodes of the previous capture's frames (PythonPath); a frame that
// changes in the middle, a shallower stack, and a cleared tree must still give exact paths.
TEST_F(ContextTest, PythonContextPathsFollowChangingFrames) {
  SetPythonFrameProvider(&SwitchingFrames);
  int id = StartFake("python");
  g_switching_frames = {kModule, kTrain, kStep};
  LaunchNow("k");
  LaunchNow("k");
  g_switching_frames = {kModule, kEval, kStep};  // same leaf frame under another parent
  LaunchNow("k");
  g_switching_frames = {kModule};
  LaunchNow("k");
  g_switching_frames = {kModule, kTrain, kStep};
  LaunchNow("k");
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {std::string(kModule), std::string(kTrain), std::string(kStep), "k"}), 3);
  EXPECT_EQ(Count(doc, {std::string(kModule), std::string(kEval), std::string(kStep), "k"}), 1);
  EXPECT_EQ(Count(doc, {std::string(kModule), "k"}), 1);

  ASSERT_TRUE(Clear(id).ok());  // every node made before is gone, cached ones too
  LaunchNow("k");
  doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {std::string(kModule), std::string(kTrain), std::string(kStep), "k"}), 1);
  EXPECT_EQ(NodeAt(doc, {std::string(kModule), std::string(kEval)}), nullptr);
}

TEST_F(ContextTest, PythonContextWithoutFramesAttributesUnderRoot) {
  int id = StartFake("python");
  LaunchNow("k");
  EXPECT_EQ(Count(SessionJson(id), {"k"}), 1);
}

}  // namespace
}  // namespace proton
