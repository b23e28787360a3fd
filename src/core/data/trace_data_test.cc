// A trace session end to end through the fake backend (formats.md §4.4, §6): scopes on two
// threads, kernels on two streams and a CUDA-graph kernel, then the written .chrome_trace's
// lanes, scope and metric events and flows.
#include "core/data/trace_data.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <thread>

#include "core/backend/trace_clock.h"
#include "core/hot_flags.h"
#include "core/testing/fake_backend.h"
#include "core/testing/json_reader.h"
#include "core/testing/test_util.h"
#include "proton/proton.h"

namespace proton {
namespace {

using test::Json;

class TraceSessionTest : public testing::Test {
 protected:
  void SetUp() override {
    test::ResetCore();
    dir_ = test::TempDir();
  }
  void TearDown() override { test::ResetCore(); }
  std::string dir_;
};

std::string Lane(const char* prefix, uint64_t id) {
  std::string name = prefix;
  return name.append(std::to_string(id));
}

TEST_F(TraceSessionTest, ScopesKernelsGraphLanesAndFlows) {
  StartOptions o;
  o.name = dir_ + "/t";
  o.backend = "fake";
  o.data = "trace";
  int id = Start(o)->value();
  FakeBackend* fake = FakeBackend::Current();
  ASSERT_NE(fake, nullptr);
  uint64_t main_thread = TraceThreadId();
  uint64_t phase = NewScopeId();
  EnterScope(phase, "phase");
  ASSERT_TRUE(AddMetrics(phase, {{"loss", 1.5}}).ok());
  fake->LaunchAndRun("k7", 1000, 7);
  fake->LaunchAndRun("k13", 2000, 13);
  uint64_t worker_thread = 0;
  std::thread worker([&] {
    worker_thread = TraceThreadId();
    uint64_t w = NewScopeId();
    EnterScope(w, "worker");
    fake->LaunchAndRun("w13", 500, 13);
    uint64_t graph = fake->Launch("", 1);  // a graph launch: its kernel runs in the graph
    fake->Queue(FakeRecord{graph, "gk", fake->clock_ns() + 50, fake->clock_ns() + 80, 0, 7, 5, 0});
    ASSERT_TRUE(ExitScope(w, "worker").ok());
  });
  worker.join();
  ASSERT_TRUE(ExitScope(phase, "phase").ok());
  ASSERT_TRUE(Finalize(id).ok());

  std::string text = test::ReadFile(dir_ + "/t.chrome_trace");
  ASSERT_EQ(text.find('\n'), text.size() - 1);
  Json doc = test::ParseOrDie(text);
  EXPECT_GT(doc["baseTimeNanoseconds"].i, 0);
  std::map<std::string, int64_t> lanes;  // name -> tid
  std::map<std::string, std::vector<const Json*>> by_cat;
  for (const Json& e : doc["traceEvents"].array) {
    EXPECT_EQ(e["pid"].i, 0);
    if (e["ph"].s == "M") {
      if (e["name"].s == "thread_name") lanes[e["args"]["name"].s] = e["tid"].i;
      continue;
    }
    EXPECT_GE(e["ts"].d, 0.0);
    by_cat[e["cat"].s].push_back(&e);
  }
  ASSERT_NE(main_thread, worker_thread);
  std::set<std::string> names;
  std::set<int64_t> tids;
  for (const auto& [name, tid] : lanes) {
    names.insert(name);
    tids.insert(tid);
  }
  EXPECT_EQ(names, (std::set<std::string>{Lane("CPU Thread ", main_thread),
                                          Lane("CPU Thread ", worker_thread), "GPU Stream 7",
                                          "GPU Stream 13", "Graph: Stream 7"}));
  EXPECT_EQ(tids.size(), 5u);  // each lane its own tid

  std::map<std::string, const Json*> kernels;
  for (const Json* k : by_cat["kernel"]) kernels[(*k)["name"].s] = k;
  ASSERT_EQ(kernels.size(), 4u);
  EXPECT_EQ((*kernels["k7"])["tid"].i, lanes["GPU Stream 7"]);
  EXPECT_EQ((*kernels["k13"])["tid"].i, lanes["GPU Stream 13"]);
  EXPECT_EQ((*kernels["w13"])["tid"].i, lanes["GPU Stream 13"]);
  EXPECT_EQ((*kernels["gk"])["tid"].i, lanes["Graph: Stream 7"]);
  EXPECT_EQ((*kernels["w13"])["args"]["call_stack"].array[1].s, "phase");  // D9 + own scope
  EXPECT_EQ((*kernels["w13"])["args"]["call_stack"].array[2].s, "worker");

  std::map<std::string, const Json*> scopes;
  for (const Json* s : by_cat["scope"]) scopes[(*s)["name"].s] = s;
  ASSERT_EQ(scopes.size(), 2u);
  EXPECT_EQ((*scopes["phase"])["tid"].i, lanes[Lane("CPU Thread ", main_thread)]);
  EXPECT_EQ((*scopes["worker"])["tid"].i, lanes[Lane("CPU Thread ", worker_thread)]);
  ASSERT_EQ(by_cat["metric"].size(), 1u);
  EXPECT_EQ((*by_cat["metric"][0])["name"].s, "phase: <loss, 1.5>");
  EXPECT_EQ((*by_cat["metric"][0])["tid"].i, lanes[Lane("CPU Thread ", main_thread)]);

  // Each kernel's flow: "f" at the kernel, "s" inside the launching thread's scope.
  std::map<int64_t, const Json*> starts;
  for (const Json* f : by_cat["flow"]) {
    if ((*f)["ph"].s == "s") starts[(*f)["id"].i] = f;
  }
  std::map<std::string, std::string> launcher = {
      {"k7", "phase"}, {"k13", "phase"}, {"w13", "worker"}, {"gk", "worker"}};
  size_t finishes = 0;
  for (const Json* f : by_cat["flow"]) {
    if ((*f)["ph"].s != "f") continue;
    ++finishes;
    EXPECT_EQ((*f)["bp"].s, "e");
    const Json* kernel = nullptr;
    for (const auto& [name, k] : kernels) {
      if ((*k)["tid"].i == (*f)["tid"].i && (*k)["ts"].d == (*f)["ts"].d) kernel = k;
    }
    ASSERT_NE(kernel, nullptr);
    const Json& start = *starts.at((*f)["id"].i);
    const Json& scope = *scopes[launcher[(*kernel)["name"].s]];
    EXPECT_EQ(start["tid"].i, scope["tid"].i) << (*kernel)["name"].s;
    EXPECT_GE(start["ts"].d, scope["ts"].d);
    EXPECT_LE(start["ts"].d, scope["ts"].d + scope["dur"].d);
    EXPECT_LE(start["ts"].d, (*f)["ts"].d);  // launched before it ran
  }
  EXPECT_EQ(finishes, 4u);
  EXPECT_EQ(starts.size(), 4u);
}

TEST_F(TraceSessionTest, OnlyTraceSessionsTurnOnTheLaunchStamp) {
  EXPECT_EQ(g_hot.launch_extras.load() & kLaunchExtraTrace, 0u);
  StartOptions o;
  o.name = dir_ + "/tree";
  o.backend = "fake";
  int tree = Start(o)->value();
  EXPECT_EQ(g_hot.launch_extras.load() & kLaunchExtraTrace, 0u);  // tree launches: no stamp
  o.name = dir_ + "/trace";
  o.data = "trace";
  int trace = Start(o)->value();
  EXPECT_NE(g_hot.launch_extras.load() & kLaunchExtraTrace, 0u);
  ASSERT_TRUE(Finalize(trace).ok());
  EXPECT_EQ(g_hot.launch_extras.load() & kLaunchExtraTrace, 0u);
  ASSERT_TRUE(Finalize(tree).ok());
}

}  // namespace
}  // namespace proton
