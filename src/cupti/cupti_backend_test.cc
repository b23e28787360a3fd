// CuptiBackend driven through the fake CUPTI table (profiler.md §5.15): subscription, callback
// ids, launch correlation input, record delivery, the flush protocol, graphs, NVTX and stop.
#include "cupti/cupti_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/session/cli_mode.h"
#include "cupti/callback_ids.h"
#include "cupti/injection_state.h"
#include "cupti/testing/fake_cupti.h"

namespace proton::cupti {
namespace {

using testing::EmitCapture;
using testing::EmitGraphLaunch;
using testing::EmitGraphResource;
using testing::EmitLaunch;
using testing::EmitNvtxPop;
using testing::EmitNvtxPush;
using testing::EmitRuntimeCapture;
using testing::Fake;
using testing::FakeContext;
using testing::MakeKernel;

struct SeenRecord {
  uint64_t correlation_id, start, end;
  uint32_t device, stream, graph_id;
  uint64_t graph_node_id;
  std::string name;
};

class MockSink : public BackendSink {
 public:
  void OnLaunchEnter(uint64_t id, std::string_view name, uint32_t expected) override {
    events.push_back("enter " + std::to_string(id) + " " + std::string(name) + " " +
                     std::to_string(expected));
  }
  void OnLaunchExit(uint64_t id) override { events.push_back("exit " + std::to_string(id)); }
  void OnKernelRecord(const KernelRecord& r) override {
    if (throw_on_record) throw std::runtime_error("sink failure");
    records.push_back({r.correlation_id, r.start_ns, r.end_ns, r.device_id, r.stream_id, r.graph_id,
                       r.graph_node_id, std::string(r.name)});
  }
  void OnBufferCompleted(uint64_t max_id) override { completed.push_back(max_id); }
  void OnRecordsLost(RecordLoss why, uint64_t count) override {
    if (why == RecordLoss::kDropped) dropped += count;
    if (why == RecordLoss::kIncomplete) incomplete += count;
  }
  void OnNvtxPush(std::string_view m) override { events.push_back("push " + std::string(m)); }
  void OnNvtxPop() override { events.push_back("pop"); }
  void OnGraphNodeCaptured(uint64_t key, std::string_view name) override {
    events.push_back("captured " + std::to_string(key) + " " + std::string(name));
  }
  void OnGraphNodeReleased(uint64_t key) override {
    events.push_back("released " + std::to_string(key));
  }

  std::vector<std::string> events;
  std::vector<SeenRecord> records;
  std::vector<uint64_t> completed;
  uint64_t dropped = 0, incomplete = 0;
  bool throw_on_record = false;
};

// MockSink for several launching threads at once.
class LockedSink : public MockSink {
 public:
  void OnLaunchEnter(uint64_t id, std::string_view name, uint32_t expected) override {
    std::lock_guard<std::mutex> lock(mutex_);
    MockSink::OnLaunchEnter(id, name, expected);
  }
  void OnLaunchExit(uint64_t id) override {
    std::lock_guard<std::mutex> lock(mutex_);
    MockSink::OnLaunchExit(id);
  }

 private:
  std::mutex mutex_;
};

class CuptiBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::ResetFake();
    backend_ = std::make_unique<CuptiBackend>(testing::FakeDriverApi(), testing::FakeCuptiApi());
  }
  void TearDown() override { backend_.reset(); }
  void StartOk() { ASSERT_TRUE(backend_->Start(&sink_, "").ok()); }
  void Launch(uint32_t id, const char* name) {
    EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, id, name);
    EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, id, name);
  }
  void Queue(const KernelActivity& k, int ready_after = 0) {
    Fake().pending.push_back({k, ready_after});
  }

  MockSink sink_;
  std::unique_ptr<CuptiBackend> backend_;
};

TEST_F(CuptiBackendTest, StartEnablesExactlyTheListedCallbacksAndConcurrentKernels) {
  StartOk();
  EXPECT_TRUE(Fake().subscribed);
  std::set<std::pair<int, CUpti_CallbackId>> enabled;
  for (auto [d, id] : Fake().enabled_callbacks) enabled.insert({static_cast<int>(d), id});
  std::set<std::pair<int, CUpti_CallbackId>> expected;
  auto add = [&](CUpti_CallbackDomain d, std::span<const CUpti_CallbackId> ids) {
    for (auto id : ids) expected.insert({static_cast<int>(d), id});
  };
  add(CUPTI_CB_DOMAIN_DRIVER_API, KernelLaunchIds());
  add(CUPTI_CB_DOMAIN_DRIVER_API, GraphLaunchIds());
  add(CUPTI_CB_DOMAIN_DRIVER_API, CaptureBeginIds());
  add(CUPTI_CB_DOMAIN_DRIVER_API, CaptureEndIds());
  add(CUPTI_CB_DOMAIN_RUNTIME_API, RuntimeCaptureBeginIds());
  add(CUPTI_CB_DOMAIN_RUNTIME_API, RuntimeCaptureEndIds());
  add(CUPTI_CB_DOMAIN_RESOURCE, GraphResourceIds());
  add(CUPTI_CB_DOMAIN_NVTX, NvtxIds());
  EXPECT_EQ(enabled, expected);
  EXPECT_EQ(expected.size(), 10u + 2 + 6 + 2 + 4 + 2 + 6 + 2);
  ASSERT_EQ(Fake().enabled_kinds.size(), 1u);
  EXPECT_EQ(Fake().enabled_kinds[0], CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  EXPECT_NE(Fake().request, nullptr);
}

TEST_F(CuptiBackendTest, InjectionReentryIsRecognisedDuringStart) {
  EXPECT_FALSE(InBackendStart());
  StartOk();
  EXPECT_TRUE(Fake().subscribed_inside_backend_start);
  EXPECT_FALSE(InBackendStart());
}

TEST_F(CuptiBackendTest, LaunchReachesSinkAndRecordIsDecoded) {
  StartOk();
  Launch(5, "add_kernel");
  EXPECT_EQ(sink_.events, (std::vector<std::string>{"enter 5 add_kernel 1", "exit 5"}));
  EXPECT_EQ(backend_->max_submitted(), 5u);
  Queue(MakeKernel(5, 1000, 3200, "add_kernel", 7, 0));
  backend_->Flush(true);
  ASSERT_EQ(sink_.records.size(), 1u);
  const SeenRecord& r = sink_.records[0];
  EXPECT_EQ(r.correlation_id, 5u);
  EXPECT_EQ(r.start, 1000u);
  EXPECT_EQ(r.end, 3200u);
  EXPECT_EQ(r.stream, 7u);
  EXPECT_EQ(r.name, "add_kernel");
  EXPECT_EQ(sink_.completed, (std::vector<uint64_t>{5}));
  EXPECT_EQ(Fake().synchronize_count, 1);  // the context that had a launch
  EXPECT_EQ(backend_->max_completed(), 5u);
}

// The flush synchronizes every context that had a launch, once each: the first 15 are kept
// lock-free in the backend's hot line, the rest in a locked list.
TEST_F(CuptiBackendTest, FlushSynchronizesEveryContextOnce) {
  StartOk();
  constexpr uint32_t kContexts = 20;
  for (int round = 0; round < 3; ++round) {
    for (uint32_t c = 1; c <= kContexts; ++c) {
      uint32_t id = round * kContexts + c;
      auto* context = FakeContext(uintptr_t{0x1000} * c);
      EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, id, "k", context);
      EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, id, "k", context);
    }
  }
  backend_->Flush(true);
  EXPECT_EQ(Fake().synchronize_count, static_cast<int>(kContexts));
}

// Threads launching on 20 contexts while this thread delivers records and flushes, as CUPTI's
// worker and an API thread would (run under TSan): the lock-free context slots and the
// submitted-id maximum against the flush and the buffer path that read them.
TEST_F(CuptiBackendTest, ConcurrentLaunchesOnManyContextsWhileFlushing) {
  LockedSink sink;
  ASSERT_TRUE(backend_->Start(&sink, "").ok());
  constexpr uint32_t kThreads = 4, kContexts = 20, kPerThread = 500;
  constexpr uint32_t kLaunches = kThreads * kPerThread;
  std::atomic<uint32_t> running{kThreads};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint32_t i = 0; i < kPerThread; ++i) {
        uint32_t id = 1 + t + kThreads * i;
        auto* context = FakeContext(uintptr_t{0x1000} * (1 + id % kContexts));
        EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, id, "k", context);
        EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, id, "k", context);
      }
      running.fetch_sub(1);
    });
  }
  uint32_t queued = 0;
  while (running.load() > 0 || queued < kLaunches) {
    for (uint32_t n = 0; n < 50 && queued < kLaunches; ++n) {
      ++queued;
      Queue(MakeKernel(queued, 10, 20, "k"));
    }
    backend_->Flush(true);
  }
  for (std::thread& thread : threads) thread.join();
  int before = Fake().synchronize_count;
  backend_->Flush(true);
  EXPECT_EQ(Fake().synchronize_count - before, static_cast<int>(kContexts));
  EXPECT_EQ(sink.records.size(), kLaunches);
  EXPECT_EQ(sink.events.size(), 2 * kLaunches);
  EXPECT_EQ(backend_->max_submitted(), kLaunches);
  EXPECT_EQ(backend_->max_completed(), kLaunches);
}

TEST_F(CuptiBackendTest, FailedLaunchIsNotWaitedFor) {
  StartOk();
  EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, 9, "k");
  EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, 9, "k", FakeContext(),
             CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(backend_->max_submitted(), 0u);
}

TEST_F(CuptiBackendTest, IncompleteAndDroppedRecordsAreCounted) {
  StartOk();
  Launch(1, "a");
  Launch(2, "b");
  Queue(MakeKernel(1, 10, 20, "a"));
  Queue(MakeKernel(2, 30, 0, "b"));  // end 0: still running when flushed
  Fake().dropped_per_buffer = 4;
  backend_->Flush(false);
  EXPECT_EQ(sink_.records.size(), 1u);
  EXPECT_EQ(sink_.incomplete, 1u);
  EXPECT_EQ(sink_.dropped, 4u);
  EXPECT_EQ(Fake().synchronize_count, 0);  // signal path: no synchronisation
}

TEST_F(CuptiBackendTest, RecordsSplitAcrossBuffersOutOfOrder) {
  StartOk();
  for (uint32_t id = 1; id <= 10; ++id) Launch(id, "k");
  for (uint32_t id = 10; id >= 1; --id)
    Queue(MakeKernel(id, uint64_t{id} * 100, uint64_t{id} * 100 + 50, "k"));
  Fake().records_per_buffer = 3;
  backend_->Flush(true);
  EXPECT_EQ(sink_.records.size(), 10u);
  EXPECT_EQ(sink_.completed.size(), 4u);         // 3+3+3+1
  EXPECT_EQ(backend_->buffers()->in_use(), 0u);  // every buffer went back to the pool
}

TEST_F(CuptiBackendTest, FlushPollsUntilLateRecordsArrive) {
  StartOk();
  Launch(1, "k");
  Queue(MakeKernel(1, 10, 20, "k"), /*ready_after=*/4);
  backend_->Flush(true);
  ASSERT_EQ(sink_.records.size(), 1u);
  EXPECT_EQ(Fake().flush_count, 4);  // the first flush and three polls
  EXPECT_EQ(backend_->last_flush_polls(), 3);
  EXPECT_EQ(Fake().forced_flush_count, 1);  // always ends with a forced flush
}

TEST_F(CuptiBackendTest, FlushGivesUpAfterAHundredPollsThenForces) {
  StartOk();
  Launch(1, "k");
  Queue(MakeKernel(1, 10, 20, "k"), /*ready_after=*/1000);
  backend_->Flush(true);
  EXPECT_EQ(backend_->last_flush_polls(), 100);
  EXPECT_EQ(Fake().forced_flush_count, 1);
  EXPECT_EQ(sink_.records.size(), 1u);  // the forced flush delivered it
}

TEST_F(CuptiBackendTest, FlushCompletedForcesOnlyWhenNothingWasLaunchedMeanwhile) {
  // The phase writer's flush (§5.14): a default flush delivers no partly filled buffer on the
  // H200, and a forced one while a kernel runs would cut its record short. So it forces only
  // after a synchronisation during which the program launched nothing.
  StartOk();
  auto* context = FakeContext(uintptr_t{0x1000});
  auto launch = [&](uint32_t id) {
    EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, id, "k", context);
    EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, id, "k", context);
  };
  backend_->FlushCompleted();
  EXPECT_EQ(Fake().synchronize_count, 0);  // nothing outstanding: no wait for the device
  launch(1);
  Queue(MakeKernel(1, 10, 20, "k"), /*ready_after=*/1000);
  // Another thread launches while this one waits for the device.
  Fake().on_synchronize = [&] { std::thread([&] { launch(2); }).join(); };
  backend_->FlushCompleted();
  EXPECT_EQ(Fake().synchronize_count, 1);
  EXPECT_EQ(Fake().forced_flush_count, 0);  // a launch came in while it waited
  EXPECT_TRUE(sink_.records.empty());
  Fake().on_synchronize = nullptr;
  Queue(MakeKernel(2, 30, 40, "k"), /*ready_after=*/1000);
  backend_->FlushCompleted();
  EXPECT_EQ(Fake().forced_flush_count, 1);
  EXPECT_EQ(sink_.records.size(), 2u);
}

TEST_F(CuptiBackendTest, SinkExceptionNeverLeavesBufferCallback) {
  StartOk();
  Launch(1, "k");
  Queue(MakeKernel(1, 10, 20, "k"));
  sink_.throw_on_record = true;
  backend_->Flush(true);  // must not throw
  EXPECT_EQ(backend_->buffers()->in_use(), 0u);
}

TEST_F(CuptiBackendTest, CaptureCreatesNoCorrelationAndRecordsCapturePath) {
  StartOk();
  EmitCapture(true, CUPTI_API_ENTER);
  EmitCapture(true, CUPTI_API_EXIT);
  EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, 3, "captured_k");
  EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, /*node_id=*/100, /*graph_id=*/1);
  EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, 3, "captured_k");
  EmitCapture(false, CUPTI_API_ENTER);
  EmitCapture(false, CUPTI_API_EXIT);
  EXPECT_EQ(sink_.events, (std::vector<std::string>{"captured 100 captured_k"}));
  EXPECT_EQ(backend_->max_submitted(), 0u);  // no record will come for a captured launch

  // Instantiation clones the node into exec 7; the captured graph is then destroyed.
  EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, 200, 2);
  EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, 200, 2, 7, 100);
  EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED, 0, 1, 7);
  EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPHNODE_DESTROY_STARTING, 100, 1);
  EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPH_DESTROY_STARTING, 0, 1);
  sink_.events.clear();

  // Two replays; the records carry the exec id and the exec's node id.
  for (uint32_t corr : {11u, 12u}) {
    EmitGraphLaunch(CUPTI_API_ENTER, corr, 7);
    EmitGraphLaunch(CUPTI_API_EXIT, corr, 7);
    Queue(
        MakeKernel(corr, uint64_t{corr} * 10, uint64_t{corr} * 10 + 5, "captured_k", 7, 0, 7, 200));
  }
  EXPECT_EQ(sink_.events,
            (std::vector<std::string>{"enter 11  1", "exit 11", "enter 12  1", "exit 12"}));
  // Under the command the program destroys the exec before the exit's flush delivers the
  // replays' records (seen on the H200): its nodes must still name their capture then.
  sink_.events.clear();
  EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING, 0, 0, 7);
  EXPECT_TRUE(sink_.events.empty());
  backend_->Flush(true);
  ASSERT_EQ(sink_.records.size(), 2u);
  EXPECT_EQ(sink_.records[0].graph_id, 7u);
  EXPECT_EQ(sink_.records[0].graph_node_id, 100u);  // the capture key, through the clone
  EXPECT_EQ(sink_.events, (std::vector<std::string>{"released 100"}));  // after the records
  EXPECT_EQ(backend_->graphs().node_count(), 0u);
}

// The callbacks of a native program (nvcc, CUDA 13 runtime) that captures two <<<>>> launches
// inside NVTX "capture" and replays the graph in NVTX "replay": the runtime reports the capture
// through its own callbacks and no driver capture callback comes. Before the runtime ids were
// handled, the launches counted as executed ("enter 3 kernel_a 1"), the nodes were not captured
// and every replayed kernel fell back to the launch context with the §3.8 warning.
TEST_F(CuptiBackendTest, NativeRuntimeCaptureWithoutDriverCaptureCallbacksIsCaptured) {
  StartOk();
  auto stream = reinterpret_cast<CUstream>(0x77);
  EmitNvtxPush("capture");
  EmitRuntimeCapture(true, CUPTI_API_ENTER, stream);
  EmitRuntimeCapture(true, CUPTI_API_EXIT, stream);
  uint64_t node = 100;
  for (const char* name : {"kernel_a", "kernel_b"}) {
    EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, 3, name);
    EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, node++, /*graph_id=*/1);
    EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, 3, name);
  }
  EmitRuntimeCapture(false, CUPTI_API_ENTER, stream);
  EmitRuntimeCapture(false, CUPTI_API_EXIT, stream);
  EmitNvtxPop();
  EXPECT_EQ(sink_.events, (std::vector<std::string>{"push capture", "captured 100 kernel_a",
                                                    "captured 101 kernel_b", "pop"}));
  EXPECT_EQ(backend_->max_submitted(), 0u);
  // cudaGraphInstantiate: each node is created and cloned into exec 7.
  for (uint64_t original : {100u, 101u}) {
    EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, original + 100, 2);
    EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, original + 100, 2, 7, original);
  }
  EmitGraphResource(CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED, 0, 1, 7);
  // After the capture ended, a launch is an ordinary launch again.
  Launch(4, "after");
  sink_.events.clear();
  EmitNvtxPush("replay");
  for (uint32_t corr = 10; corr < 30; ++corr) {
    EmitGraphLaunch(CUPTI_API_ENTER, corr, 7);
    EmitGraphLaunch(CUPTI_API_EXIT, corr, 7);
    Queue(MakeKernel(corr, uint64_t{corr} * 10, uint64_t{corr} * 10 + 2, "kernel_a", 7, 0, 7, 200));
    Queue(MakeKernel(corr, uint64_t{corr} * 10 + 3, uint64_t{corr} * 10 + 5, "kernel_b", 7, 0, 7,
                     201));
  }
  EmitNvtxPop();
  EXPECT_EQ(sink_.events[1], "enter 10  2");  // the exec is known: two kernel records
  backend_->Flush(true);
  ASSERT_EQ(sink_.records.size(), 40u);
  for (const SeenRecord& r : sink_.records) {
    EXPECT_EQ(r.graph_node_id, r.name == "kernel_a" ? 100u : 101u) << r.name;
  }
}

// Both the runtime and the driver report the same capture: counted once, so the end of it
// ends the capture.
TEST_F(CuptiBackendTest, CaptureReportedByRuntimeAndDriverEndsOnce) {
  StartOk();
  auto stream = reinterpret_cast<CUstream>(0x77);
  EmitRuntimeCapture(true, CUPTI_API_ENTER, stream);
  EmitCapture(true, CUPTI_API_EXIT);  // the fake's driver capture names no stream
  EmitRuntimeCapture(true, CUPTI_API_EXIT, stream);
  EmitCapture(false, CUPTI_API_EXIT);
  Launch(5, "still_captured");
  EXPECT_EQ(backend_->max_submitted(), 0u);
  EmitRuntimeCapture(false, CUPTI_API_EXIT, stream);
  Launch(6, "executed");
  EXPECT_EQ(backend_->max_submitted(), 6u);
}

TEST_F(CuptiBackendTest, GraphCapturedBeforeStartFallsBack) {
  StartOk();
  for (uint32_t corr = 1; corr <= 3; ++corr) {
    EmitGraphLaunch(CUPTI_API_ENTER, corr, 42);
    EmitGraphLaunch(CUPTI_API_EXIT, corr, 42);
  }
  EXPECT_EQ(sink_.events[0], "enter 1  0");  // unknown node count (the core warns once)
  Queue(MakeKernel(1, 10, 20, "k", 7, 0, 42, 555));
  backend_->Flush(true);
  ASSERT_EQ(sink_.records.size(), 1u);
  EXPECT_EQ(sink_.records[0].graph_node_id, 0u);   // no capture key: fallback by name
  EXPECT_EQ(backend_->graphs().exec_count(), 0u);  // no state kept for the unknown exec
}

TEST_F(CuptiBackendTest, NvtxRangesReachSink) {
  StartOk();
  EmitNvtxPush("outer");
  EmitNvtxPush("inner");
  EmitNvtxPop();
  EmitNvtxPop();
  EXPECT_EQ(sink_.events, (std::vector<std::string>{"push outer", "push inner", "pop", "pop"}));
}

TEST_F(CuptiBackendTest, RecursionGuardHidesOwnLaunches) {
  StartOk();
  {
    ScopedCallbackGuard guard;
    Launch(1, "metric_kernel");
  }
  Launch(2, "user_kernel");
  EXPECT_EQ(sink_.events, (std::vector<std::string>{"enter 2 user_kernel 1", "exit 2"}));
}

TEST_F(CuptiBackendTest, StopFollowsTheProtocolOrderAndAllowsRestart) {
  StartOk();
  Launch(1, "k");
  Fake().calls.clear();
  backend_->Stop();
  EXPECT_EQ(Fake().calls,
            (std::vector<std::string>{"activity_disable", "enable_domain(0,1)",
                                      "enable_domain(0,2)", "enable_domain(0,3)",
                                      "enable_domain(0,5)", "unsubscribe", "finalize"}));
  EXPECT_FALSE(backend_->started());
  EXPECT_EQ(backend_->max_submitted(), 0u);  // correlation ids restart after finalize
  Launch(3, "after_stop");                   // unsubscribed: nothing reaches the sink
  EXPECT_EQ(sink_.events.size(), 2u);
  StartOk();
  Launch(1, "again");
  EXPECT_EQ(sink_.events.back(), "exit 1");
}

TEST_F(CuptiBackendTest, FailingFlushWarnsOnceAndIsCountedEveryTime) {
  StartOk();
  Fake().flush_result = CUPTI_ERROR_NOT_INITIALIZED;
  ::testing::internal::CaptureStderr();
  backend_->Flush(false);  // a default flush and a forced one
  backend_->Flush(false);
  backend_->FlushCompleted();  // a default flush only: nothing was launched
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err,
            "[proton] warning: cuptiActivityFlushAll failed: CUPTI_ERROR_NOT_INITIALIZED (15)\n");
  EXPECT_EQ(backend_->cupti_calls().failures("cuptiActivityFlushAll"), 5u);
  EXPECT_EQ(backend_->cupti_calls().total_failures(), 5u);
  EXPECT_TRUE(backend_->started());  // a failed flush stops nothing
}

TEST_F(CuptiBackendTest, FailingStopCallsWarnOnceEachAndStopStillCompletes) {
  StartOk();
  Fake().activity_disable_result = CUPTI_ERROR_NOT_INITIALIZED;
  Fake().unsubscribe_result = CUPTI_ERROR_INVALID_CONTEXT;
  Fake().finalize_result = CUPTI_ERROR_UNKNOWN;
  Fake().calls.clear();
  ::testing::internal::CaptureStderr();
  backend_->Stop();
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err,
            "[proton] warning: cuptiActivityDisable failed: CUPTI_ERROR_NOT_INITIALIZED (15)\n"
            "[proton] warning: cuptiUnsubscribe failed: CUPTI_ERROR_INVALID_CONTEXT (3)\n"
            "[proton] warning: cuptiFinalize failed: CUPTI_ERROR_UNKNOWN (999)\n");
  EXPECT_EQ(Fake().calls.back(), "finalize");  // every step of the protocol still ran
  EXPECT_FALSE(backend_->started());
  EXPECT_EQ(backend_->cupti_calls().failures("cuptiActivityDisable"), 1u);
  EXPECT_EQ(backend_->cupti_calls().failures("cuptiUnsubscribe"), 1u);
  EXPECT_EQ(backend_->cupti_calls().failures("cuptiFinalize"), 1u);
  // The same failures at the next stop are counted, not printed again.
  StartOk();
  ::testing::internal::CaptureStderr();
  backend_->Stop();
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(backend_->cupti_calls().failures("cuptiFinalize"), 2u);
  EXPECT_EQ(backend_->cupti_calls().total_failures(), 6u);
}

TEST_F(CuptiBackendTest, MultipleSubscribersGivesTheExactApiMessage) {
  Fake().subscribe_result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  Status status = backend_->Start(&sink_, "");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "CUPTI is already in use by another profiler in this process "
            "(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED): stop torch.profiler/Kineto, "
            "Nsight Systems, Nsight Compute or the other CUPTI tool first, or set "
            "PROTON_DISABLE=1 to run without proton");
  EXPECT_FALSE(backend_->started());
}

TEST_F(CuptiBackendTest, MultipleSubscribersInCliModePrintsTheStepAsideLine) {
  Fake().subscribe_result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  SetCommandLineMode(true);
  ::testing::internal::CaptureStderr();
  Status status = backend_->Start(&sink_, "");
  std::string err = ::testing::internal::GetCapturedStderr();
  SetCommandLineMode(false);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(err, "[proton] warning: CUPTI is already in use by another profiler in process " +
                     std::to_string(getpid()) +
                     " (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED); this process runs "
                     "unprofiled\n");
}

TEST_F(CuptiBackendTest, OtherSubscriptionFailuresUseTheirSymbolicName) {
  Fake().subscribe_result = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  Status status = backend_->Start(&sink_, "");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)"), std::string::npos);
}

TEST_F(CuptiBackendTest, DevicePropertiesOfTheH200) {
  std::optional<DeviceInfo> info = backend_->QueryDevice(0);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->type, "CUDA");
  EXPECT_EQ(info->arch, "90");
  EXPECT_EQ(info->num_sms, 132u);
  EXPECT_EQ(info->clock_rate, 1980000u);
  EXPECT_EQ(info->memory_clock_rate, 3201000u);
  EXPECT_EQ(info->bus_width, 6016u);
  EXPECT_FALSE(backend_->QueryDevice(3).has_value());
}

}  // namespace
}  // namespace proton::cupti
