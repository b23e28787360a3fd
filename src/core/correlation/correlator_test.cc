// Correlation with the fake backend (profiler.md §5.5, N15-N18): late, out-of-order and split
// records, records after scope exit and deactivate, lost records, ops and launch metadata,
// graphs, sessions, NVTX.
#include "core/correlation/correlator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <thread>

#include "core/runtime/runtime.h"
#include "core/session/session_manager.h"
#include "core/testing/alloc_counter.h"
#include "core/testing/fake_backend.h"
#include "core/testing/test_util.h"
#include "proton/proton.h"

namespace proton {
namespace {

using test::NodeAt;
using test::SessionJson;

class CorrelatorTest : public testing::Test {
 protected:
  void SetUp() override {
    test::ResetCore();
    dir_ = test::TempDir();
  }
  void TearDown() override { test::ResetCore(); }
  int StartFake(const std::string& name, const std::string& data = "tree") {
    StartOptions o;
    o.name = dir_ + "/" + name;
    o.backend = "fake";
    o.data = data;
    auto r = Start(o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    fake_ = FakeBackend::Current();
    EXPECT_NE(fake_, nullptr);
    return r->value_or(-1);
  }
  uint64_t Scope(const char* name) {
    uint64_t id = NewScopeId();
    EnterScope(id, name);
    return id;
  }
  Correlator& correlator() { return ProcessRuntime().sessions().correlator(); }
  int64_t Count(const test::Json& doc, const std::vector<std::string>& path) {
    const test::Json* n = NodeAt(doc, path);
    if (n == nullptr) return -1;
    const test::Json* c = n->operator[]("metrics").Find("count");
    return c ? c->i : 0;
  }
  // Finalizes trace session `id` (file `name`.chrome_trace) and counts its kernel events and
  // flow starts and ends.
  struct TraceCounts {
    size_t kernels = 0, flow_starts = 0, flow_ends = 0;
  };
  TraceCounts FinalizeTrace(int id, const std::string& name) {
    EXPECT_TRUE(Finalize(id).ok());
    test::Json doc = test::ParseOrDie(test::ReadFile(dir_ + "/" + name + ".chrome_trace"));
    TraceCounts counts;
    for (const test::Json& e : doc["traceEvents"].array) {
      const test::Json* cat = e.Find("cat");
      if (cat == nullptr) continue;
      if (cat->s == "kernel") ++counts.kernels;
      if (cat->s == "flow") ++(e["ph"].s == "s" ? counts.flow_starts : counts.flow_ends);
    }
    return counts;
  }
  std::string dir_;
  FakeBackend* fake_ = nullptr;
};

TEST_F(CorrelatorTest, KernelUnderScopeWithDeviceTable) {
  int id = StartFake("k");
  uint64_t s = Scope("a");
  fake_->LaunchAndRun("k", 100);
  ASSERT_TRUE(ExitScope(s, "a").ok());
  fake_->CompleteBuffer();
  test::Json doc = SessionJson(id);
  const test::Json* k = NodeAt(doc, {"a", "k"});
  ASSERT_NE(k, nullptr);
  EXPECT_EQ((*k)["metrics"]["time (ns)"].i, 100);
  EXPECT_EQ((*k)["metrics"]["count"].i, 1);
  EXPECT_EQ((*k)["metrics"]["device_id"].s, "0");
  EXPECT_EQ((*k)["metrics"]["device_type"].s, "CUDA");
  EXPECT_EQ(doc.array[1]["CUDA"]["0"]["num_sms"].i, 132);
  EXPECT_EQ(doc.array[0]["metrics"]["count"].i, 0);
}

// §7.4: once the nodes exist, a launch (enter, exit) and its record's attribution allocate
// nothing: no per-launch vector, no map node.
TEST_F(CorrelatorTest, SteadyStateLaunchPathDoesNotAllocate) {
  if (!test::AllocationCountingAvailable()) GTEST_SKIP() << "sanitizer build";
  int id = StartFake("k");
  uint64_t s = Scope("a");
  const std::string names[2] = {"k1", "k2"};
  BackendSink& sink = correlator();
  KernelRecord record;
  auto launch = [&](uint64_t corr) {
    const std::string& name = names[corr % 2];
    sink.OnLaunchEnter(corr, name, 1);
    sink.OnLaunchExit(corr);
    record.correlation_id = corr;
    record.start_ns = corr * 10;
    record.end_ns = corr * 10 + 5;
    record.name = name;
    sink.OnKernelRecord(record);
  };
  for (uint64_t corr = 1; corr <= 100; ++corr) launch(corr);
  uint64_t before = test::ThreadAllocations();
  for (uint64_t corr = 101; corr <= 1100; ++corr) launch(corr);
  EXPECT_EQ(test::ThreadAllocations() - before, 0u);
  ASSERT_TRUE(ExitScope(s, "a").ok());
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {"a", "k1"}), 550);
  EXPECT_EQ(Count(doc, {"a", "k2"}), 550);
  EXPECT_EQ(correlator().pending_entries(), 0u);
}

// More launches in flight than the correlation ring holds: the rest wait in the map, and
// every record still lands, in any order.
TEST_F(CorrelatorTest, ManyLaunchesInFlightAllLand) {
  int id = StartFake("k");
  uint64_t s = Scope("a");
  constexpr uint64_t kLaunches = 70000;
  BackendSink& sink = correlator();
  for (uint64_t corr = 1; corr <= kLaunches; ++corr) {
    sink.OnLaunchEnter(corr, corr % 3 == 0 ? "k3" : "k", 1);
    sink.OnLaunchExit(corr);
  }
  EXPECT_EQ(correlator().pending_entries(), kLaunches);
  KernelRecord record;
  for (uint64_t corr = kLaunches; corr >= 1; --corr) {
    record.correlation_id = corr;
    record.start_ns = 1;
    record.end_ns = 3;
    record.name = corr % 3 == 0 ? "k3" : "k";
    sink.OnKernelRecord(record);
  }
  ASSERT_TRUE(ExitScope(s, "a").ok());
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {"a", "k3"}), static_cast<int64_t>(kLaunches / 3));
  EXPECT_EQ(Count(doc, {"a", "k"}), static_cast<int64_t>(kLaunches - kLaunches / 3));
  EXPECT_EQ(correlator().pending_entries(), 0u);
  EXPECT_EQ(correlator().counters().unknown, 0u);
}

// How far a launching thread got, for the record thread. The fence pair orders each launch
// before its record in the C++ memory model, but ThreadSanitizer does not model fences, so
// the only order between the two threads it can see is the correlator's own (a ring slot's
// key): a missing release or acquire there is reported instead of hidden by the test's
// hand-over. GCC's -Wtsan warns about exactly this blindness; here it is the point.
#if defined(__SANITIZE_THREAD__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif
void PublishLaunched(std::atomic<uint64_t>& launched, uint64_t count) {
  std::atomic_thread_fence(std::memory_order_release);
  launched.store(count, std::memory_order_relaxed);
}
uint64_t ReadLaunched(const std::atomic<uint64_t>& launched) {
  uint64_t count = launched.load(std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_acquire);
  return count;
}
#if defined(__SANITIZE_THREAD__)
#pragma GCC diagnostic pop
#endif

// Two threads launch `per_thread` kernels "k" each under scope "t" (ids interleaved, like
// CUPTI's counter) while this thread delivers every record as soon as its launch returned.
void LaunchAndDeliverConcurrently(BackendSink& sink, uint64_t per_thread) {
  std::atomic<uint64_t> launched[2];
  auto launcher = [&](int t) {
    uint64_t s = NewScopeId();
    EnterScope(s, "t");
    for (uint64_t i = 0; i < per_thread; ++i) {
      uint64_t corr = 1 + t + 2 * i;
      sink.OnLaunchEnter(corr, "k", 1);
      sink.OnLaunchExit(corr);
      PublishLaunched(launched[t], i + 1);
    }
    (void)ExitScope(s, "t");
  };
  std::thread a(launcher, 0), b(launcher, 1);
  KernelRecord record;
  record.name = "k";
  record.start_ns = 1;
  record.end_ns = 2;
  uint64_t delivered[2] = {0, 0};
  while (delivered[0] + delivered[1] < 2 * per_thread) {
    bool any = false;
    for (int t = 0; t < 2; ++t) {
      for (uint64_t n = ReadLaunched(launched[t]); delivered[t] < n; ++delivered[t]) {
        record.correlation_id = 1 + t + 2 * delivered[t];
        sink.OnKernelRecord(record);
        any = true;
      }
    }
    if (!any) std::this_thread::yield();
  }
  a.join();
  b.join();
}

// Launching threads and a record thread at once (run under TSan): the ring's slot hand-over
// between writer and reader, and slot reuse once the ids wrap the ring, lose nothing.
TEST_F(CorrelatorTest, ConcurrentLaunchesAndRecords) {
  int id = StartFake("k");
  constexpr uint64_t kPerThread = 40000;  // 80,000 ids: more than the ring's 65,536 slots
  LaunchAndDeliverConcurrently(correlator(), kPerThread);
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {"t", "k"}), static_cast<int64_t>(2 * kPerThread));
  EXPECT_EQ(correlator().pending_entries(), 0u);
  EXPECT_EQ(correlator().counters().unknown, 0u);
}

// The same while an API thread deactivates and reactivates the session, reads its profile,
// and starts, clears and finalizes a second one (its data retired and freed while slots refer
// to it)
// (run under TSan: the epoch-refreshed thread caches, retirement and writers against the
// launch and record paths). Every launch is either recorded or counted as uncorrelated.
TEST_F(CorrelatorTest, ConcurrentLaunchesRecordsAndSessionChanges) {
  int id = StartFake("k");
  std::atomic<bool> done{false};
  int rounds = 0;
  std::thread api([&] {
    while (!done.load()) {
      EXPECT_TRUE(Deactivate(id).ok());
      EXPECT_TRUE(Activate(id).ok());
      StartOptions o;
      o.name = dir_ + "/other";
      o.backend = "fake";
      auto other = Start(o);
      ASSERT_TRUE(other.ok() && other->has_value());
      EXPECT_TRUE(GetJson(id).ok());
      EXPECT_TRUE(Clear(**other).ok());
      EXPECT_TRUE(Finalize(**other).ok());
      ++rounds;
    }
  });
  constexpr uint64_t kPerThread = 50000;
  LaunchAndDeliverConcurrently(correlator(), kPerThread);
  done.store(true);
  api.join();
  EXPECT_GT(rounds, 0);
  test::Json doc = SessionJson(id);
  LossCounters c = correlator().counters();
  EXPECT_GT(Count(doc, {"t", "k"}), 0);
  EXPECT_LE(Count(doc, {"t", "k"}) + static_cast<int64_t>(c.uncorrelated_launches),
            static_cast<int64_t>(2 * kPerThread));
  EXPECT_EQ(c.unknown, c.uncorrelated_launches);  // records of uncorrelated launches only
  EXPECT_EQ(correlator().pending_entries(), 0u);
}

TEST_F(CorrelatorTest, LateOutOfOrderAndSplitRecords) {
  int id = StartFake("k");
  uint64_t s = Scope("a");
  fake_->LaunchAndRun("k1", 10);
  fake_->LaunchAndRun("k2", 20);
  fake_->LaunchAndRun("k1", 30);
  ASSERT_TRUE(ExitScope(s, "a").ok());
  EXPECT_EQ(correlator().pending_entries(), 3u);
  fake_->CompleteBuffer({2, 0});  // the third and first, reversed
  EXPECT_EQ(correlator().pending_entries(), 1u);
  fake_->CompleteBuffer();
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {"a", "k1"}), 2);
  EXPECT_EQ((*NodeAt(doc, {"a", "k1"}))["metrics"]["time (ns)"].i, 40);
  EXPECT_EQ(Count(doc, {"a", "k2"}), 1);
  EXPECT_EQ(correlator().pending_entries(), 0u);
}

TEST_F(CorrelatorTest, RecordsAfterScopeExitAndDeactivateStillLand) {
  int id = StartFake("k");
  uint64_t s = Scope("a");
  fake_->LaunchAndRun("k", 10);
  ASSERT_TRUE(ExitScope(s, "a").ok());
  ASSERT_TRUE(Deactivate(id).ok());
  fake_->LaunchAndRun("ignored", 10);  // no active session: not correlated
  fake_->CompleteBuffer();
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {"a", "k"}), 1);
  EXPECT_EQ(NodeAt(doc, {"ignored"}), nullptr);
  LossCounters c = correlator().counters();
  EXPECT_EQ(c.unknown, 1u);
  EXPECT_EQ(c.uncorrelated_launches, 1u);
  EXPECT_EQ(correlator().LossWarning(), "");  // expected unknowns are not warned about
}

TEST_F(CorrelatorTest, IncompleteAndDroppedRecordsWarnOnceAtFinalize) {
  int id = StartFake("k");
  uint64_t corr = fake_->Launch("k");
  fake_->Queue(FakeRecord{corr, "k", 50, 50});
  fake_->CompleteBuffer();
  fake_->Drop(3);
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {"k"}), 0);  // node exists (captured at launch), no metrics
  testing::internal::CaptureStderr();
  ASSERT_TRUE(Finalize(id).ok());
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("[proton] warning: 4 kernel records were lost ("), std::string::npos) << err;
  EXPECT_NE(err.find("PROTON_PROFILE_BUFFER_SIZE"), std::string::npos);
}

TEST_F(CorrelatorTest, FlushAtFinalizeDeliversQueuedRecords) {
  int id = StartFake("f");
  fake_->LaunchAndRun("k", 5);
  ASSERT_TRUE(Deactivate(id, /*flushing=*/true).ok());
  EXPECT_EQ(Count(SessionJson(id), {"k"}), 1);
  EXPECT_EQ(correlator().pending_entries(), 0u);
}

TEST_F(CorrelatorTest, OpCarriesKernelAndMetadataMetrics) {
  int id = StartFake("op");
  uint64_t s = Scope("add_phase");
  uint64_t op = NewScopeId();
  // The launch hook: metadata evaluated under the metadata state; a helper kernel launched
  // there lands under __proton_launch_metadata/<kernel>.
  EnterState("__proton_launch_metadata:add_kernel");
  fake_->LaunchAndRun("reduce_kernel", 3);
  ExitState();
  EnterOp(op, "add_1048576");
  ASSERT_TRUE(AddOpMetrics(op, {{"flops32", int64_t{1048576}}, {"bytes", int64_t{12582912}}}).ok());
  fake_->LaunchAndRun("add_kernel", 7);
  ExitOp(op);
  ASSERT_TRUE(ExitScope(s, "add_phase").ok());
  fake_->CompleteBuffer();
  test::Json doc = SessionJson(id);
  const test::Json* node = NodeAt(doc, {"add_phase", "add_1048576"});
  ASSERT_NE(node, nullptr);
  EXPECT_TRUE((*node)["children"].array.empty());
  EXPECT_EQ((*node)["metrics"]["count"].i, 1);
  EXPECT_EQ((*node)["metrics"]["bytes"].i, 12582912);
  EXPECT_EQ((*node)["metrics"]["flops32"].d, 1048576.0);
  EXPECT_EQ(Count(doc, {"add_phase", "__proton_launch_metadata", "add_kernel", "reduce_kernel"}),
            1);
  EXPECT_EQ(doc.array[0]["metrics"]["flops32"].i, 0);
  EXPECT_EQ(doc.array[0]["metrics"]["bytes"].i, 0);
}

TEST_F(CorrelatorTest, GraphCapturedInScopeReplayedTwice) {
  int id = StartFake("g");
  uint64_t cap = Scope("A");
  fake_->sink()->OnGraphNodeCaptured(11, "k");
  ASSERT_TRUE(ExitScope(cap, "A").ok());
  EXPECT_EQ(NodeAt(SessionJson(id), {"A", "k"}), nullptr);  // nothing written for a capture
  uint64_t rep = Scope("B");
  for (int i = 0; i < 2; ++i) {
    uint64_t corr = fake_->NextCorrelationId();
    fake_->sink()->OnLaunchEnter(corr, "", 1);
    fake_->sink()->OnLaunchExit(corr);
    fake_->Queue(FakeRecord{corr, "k", 100, 200, 0, 7, 5, 11});
  }
  ASSERT_TRUE(ExitScope(rep, "B").ok());
  fake_->CompleteBuffer();
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {"B", "<captured_at>", "A", "k"}), 2);
  EXPECT_EQ(correlator().pending_entries(), 0u);
  fake_->sink()->OnGraphNodeReleased(11);
  EXPECT_EQ(correlator().captured_graph_nodes(), 0u);
}

TEST_F(CorrelatorTest, ReplayedKernelNamingAnUnreportedExecNodeFindsItsCaptureByName) {
  // Seen on the H200 under the command: the records of a replayed graph named exec nodes that
  // no resource callback reported (graph_node_id 0 after the tracker). The captured node of
  // the same kernel gives the path while that is unambiguous.
  int id = StartFake("g");
  uint64_t cap = Scope("A");
  fake_->sink()->OnGraphNodeCaptured(11, "k");
  fake_->sink()->OnGraphNodeCaptured(12, "k2");
  ASSERT_TRUE(ExitScope(cap, "A").ok());
  uint64_t rep = Scope("B");
  auto replay = [&](const char* kernel) {
    uint64_t corr = fake_->NextCorrelationId();
    fake_->sink()->OnLaunchEnter(corr, "", 1);
    fake_->sink()->OnLaunchExit(corr);
    fake_->Queue(FakeRecord{corr, kernel, 100, 200, 0, 7, 5, 0});
    fake_->CompleteBuffer();
  };
  replay("k");
  replay("k2");
  uint64_t other = Scope("C");  // a second capture of "k" elsewhere: no longer unambiguous
  fake_->sink()->OnGraphNodeCaptured(13, "k");
  ASSERT_TRUE(ExitScope(other, "C").ok());
  testing::internal::CaptureStderr();
  replay("k");
  (void)testing::internal::GetCapturedStderr();
  fake_->sink()->OnGraphNodeReleased(13);
  replay("k");
  ASSERT_TRUE(ExitScope(rep, "B").ok());
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {"B", "<captured_at>", "A", "k"}), 2);
  EXPECT_EQ(Count(doc, {"B", "<captured_at>", "A", "k2"}), 1);
  EXPECT_EQ(Count(doc, {"B", "k"}), 1);  // the ambiguous one: the launch context
}

TEST_F(CorrelatorTest, GraphCapturedBeforeStartFallsBackWithOneWarningAndBoundedState) {
  int id = StartFake("g");
  uint64_t rep = Scope("B");
  testing::internal::CaptureStderr();
  for (int i = 0; i < 100000; ++i) {
    uint64_t corr = fake_->NextCorrelationId();
    fake_->sink()->OnLaunchEnter(corr, "", i % 2 ? 0 : 1);  // count known or unknown
    fake_->sink()->OnLaunchExit(corr);
    fake_->Queue(FakeRecord{corr, "k", 100, 110, 0, 7, 5, 0});
    if (i % 1000 == 999) {
      fake_->CompleteBuffer();
      correlator().AfterFlush();
      EXPECT_LE(correlator().pending_entries(), 1000u);
    }
  }
  std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(ExitScope(rep, "B").ok());
  EXPECT_EQ(correlator().pending_entries(), 0u);
  size_t warnings = 0;
  for (size_t p = err.find("captured before profiling"); p != std::string::npos;
       p = err.find("captured before profiling", p + 1))
    ++warnings;
  EXPECT_LE(warnings, 1u);  // once per process (another test may have printed it already)
  EXPECT_EQ(Count(SessionJson(id), {"B", "k"}), 100000);
}

TEST_F(CorrelatorTest, UnknownCountGraphLaunchesStayBoundedWithoutFlush) {
  int id = StartFake("g");
  // Four times around the ring, records delivered in buffers, nobody flushing: the state of
  // these launches lives in the preallocated ring only (G12: host memory flat), and every
  // record is still attributed.
  constexpr int kLaunches = 4 * 65536 + 123;
  for (int i = 0; i < kLaunches; ++i) {
    uint64_t corr = fake_->NextCorrelationId();
    fake_->sink()->OnLaunchEnter(corr, "", 0);
    fake_->sink()->OnLaunchExit(corr);
    fake_->Queue(FakeRecord{corr, "k", 100, 110, 0, 7, 5, 0});
    if (i % 100 == 99) fake_->CompleteBuffer();
    if (i % 10000 == 0) {
      EXPECT_EQ(correlator().heap_entries(), 0u);
    }
  }
  fake_->CompleteBuffer();
  EXPECT_LE(correlator().pending_entries(), 65536u);
  EXPECT_EQ(correlator().counters().unknown, 0u);
  EXPECT_EQ(Count(SessionJson(id), {"k"}), kLaunches);
  correlator().AfterFlush();
  EXPECT_EQ(correlator().pending_entries(), 0u);
}

TEST_F(CorrelatorTest, KnownCountLaunchesAreNeverReclaimedByTheRing) {
  int id = StartFake("g");
  // A known-count launch whose record has not arrived when the ring wraps keeps its slot; the
  // launch LaunchRing::kSize ids later goes to the map, and both records are attributed.
  uint64_t first = fake_->NextCorrelationId();
  fake_->sink()->OnLaunchEnter(first, "", 1);
  fake_->sink()->OnLaunchExit(first);
  for (int i = 0; i < 65535; ++i) (void)fake_->NextCorrelationId();
  uint64_t wrapped = fake_->NextCorrelationId();
  ASSERT_EQ(wrapped & 0xffff, first & 0xffff);
  fake_->sink()->OnLaunchEnter(wrapped, "", 1);
  fake_->sink()->OnLaunchExit(wrapped);
  EXPECT_EQ(correlator().heap_entries(), 1u);
  fake_->Queue(FakeRecord{first, "k", 100, 110, 0, 7, 0, 0});
  fake_->Queue(FakeRecord{wrapped, "k", 100, 110, 0, 7, 0, 0});
  fake_->CompleteBuffer();
  EXPECT_EQ(correlator().pending_entries(), 0u);
  EXPECT_EQ(Count(SessionJson(id), {"k"}), 2);
}

TEST_F(CorrelatorTest, TwoSessionsGetExactlyTheLaunchesWhileActive) {
  int s0 = StartFake("s0");
  fake_->LaunchAndRun("first", 1);
  StartOptions o;
  o.name = dir_ + "/s1";
  o.backend = "fake";
  int s1 = Start(o)->value();
  fake_->LaunchAndRun("both", 1);
  ASSERT_TRUE(Deactivate(s0).ok());
  fake_->LaunchAndRun("only1", 1);
  ASSERT_TRUE(Activate(s0).ok());
  fake_->LaunchAndRun("both", 1);
  fake_->CompleteBuffer();
  test::Json d0 = SessionJson(s0), d1 = SessionJson(s1);
  EXPECT_EQ(Count(d0, {"first"}), 1);
  EXPECT_EQ(Count(d0, {"both"}), 2);
  EXPECT_EQ(NodeAt(d0, {"only1"}), nullptr);
  EXPECT_EQ(NodeAt(d1, {"first"}), nullptr);
  EXPECT_EQ(Count(d1, {"both"}), 2);
  EXPECT_EQ(Count(d1, {"only1"}), 1);
}

// Trace data's flows start at the launch stamp that travels with the launch's targets: through
// the ring (one or two sessions), through the map (three sessions, more than a slot holds),
// and for every kernel of a graph launch (many records under one correlation id).
TEST_F(CorrelatorTest, EveryTraceKernelGetsItsLaunchStampFromTheRingAndTheMap) {
  std::vector<int> sessions = {StartFake("t0", "trace")};
  fake_->LaunchAndRun("ring", 100);
  sessions.push_back(StartFake("t1", "trace"));
  sessions.push_back(StartFake("t2", "trace"));
  fake_->LaunchAndRun("map", 100);
  uint64_t corr = fake_->Launch("graph", /*expected_records=*/2);
  fake_->Queue(FakeRecord{corr, "g1", 100, 200, 0, 7, 5, 0});
  fake_->Queue(FakeRecord{corr, "g2", 300, 400, 0, 7, 5, 0});
  fake_->CompleteBuffer();
  EXPECT_EQ(correlator().pending_entries(), 0u);
  for (size_t i = 0; i < sessions.size(); ++i) {
    const char* names[] = {"t0", "t1", "t2"};
    TraceCounts c = FinalizeTrace(sessions[i], names[i]);
    EXPECT_EQ(c.kernels, i == 0 ? 4u : 3u) << "session " << i;
    EXPECT_EQ(c.flow_starts, c.kernels) << "session " << i;
    EXPECT_EQ(c.flow_ends, c.kernels) << "session " << i;
  }
  EXPECT_EQ(correlator().pending_entries(), 0u);
}

// Ring slots point at session data without owning it (Correlator::MakeData): data whose
// session was finalized while one of its launches still waits for a record is retired, then
// freed without that slot ever reading it again (the sanitizer build checks the "ever").
TEST_F(CorrelatorTest, DataFinalizedWithALaunchInFlightIsRetiredThenFreed) {
  int s0 = StartFake("s0");
  StartOptions o;
  o.name = dir_ + "/s1";
  o.backend = "fake";
  int s1 = Start(o)->value();
  uint64_t in_flight = fake_->Launch("k");    // captured into both sessions; no record yet
  ASSERT_TRUE(Finalize(s0).ok());             // the fake flush has nothing to deliver
  EXPECT_EQ(Correlator::retired_data(), 0u);  // this thread's context cache still owns s0's
  fake_->LaunchAndRun("next", 1);             // refreshes the cache: s0's data retires
  EXPECT_EQ(Correlator::retired_data(), 1u);
  correlator().FreeRetiredData();
  EXPECT_EQ(Correlator::retired_data(), 0u);
  fake_->Queue(FakeRecord{in_flight, "k", fake_->clock_ns(), fake_->clock_ns() + 5});
  fake_->CompleteBuffer();
  test::Json d1 = SessionJson(s1);
  EXPECT_EQ(Count(d1, {"k"}), 1);
  EXPECT_EQ(Count(d1, {"next"}), 1);
  EXPECT_EQ(correlator().counters().unknown, 0u);
  EXPECT_EQ(correlator().pending_entries(), 0u);
}

TEST_F(CorrelatorTest, CorrelationIdsRestartAfterFinalize) {
  int a = StartFake("a");
  EXPECT_EQ(fake_->Launch("x"), 1u);  // never delivered
  ASSERT_TRUE(Finalize(a).ok());
  int b = StartFake("b");
  EXPECT_EQ(fake_->LaunchAndRun("y", 2), 1u);
  fake_->CompleteBuffer();
  test::Json doc = SessionJson(b);
  EXPECT_EQ(Count(doc, {"y"}), 1);
  EXPECT_EQ(NodeAt(doc, {"x"}), nullptr);
}

TEST_F(CorrelatorTest, NvtxRangesNestWithScopesAndUnbalancedPopIsIgnored) {
  int id = StartFake("n");
  fake_->sink()->OnNvtxPush("nvtx_outer");
  fake_->LaunchAndRun("gemm", 1);
  uint64_t s = Scope("py");
  fake_->sink()->OnNvtxPush("nvtx_inner");
  fake_->LaunchAndRun("scale", 1);
  fake_->sink()->OnNvtxPop();
  ASSERT_TRUE(ExitScope(s, "py").ok());
  fake_->sink()->OnNvtxPop();
  fake_->sink()->OnNvtxPop();  // unbalanced: ignored
  fake_->CompleteBuffer();
  test::Json doc = SessionJson(id);
  EXPECT_EQ(Count(doc, {"nvtx_outer", "gemm"}), 1);
  EXPECT_EQ(Count(doc, {"nvtx_outer", "py", "nvtx_inner", "scale"}), 1);
  EXPECT_EQ(ContextDepth(id), 0);
}

}  // namespace
}  // namespace proton
