// PC sampling (profiler.md §1.10, §5.13) without a GPU: the pure rules of
// pc_sampling_decoder.h, and CuptiBackend in pcsampling mode driven through the fake CUPTI
// (call order, configuration, the GetData loop, decoded counters, source lines, errors).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/session/cli_mode.h"
#include "cupti/callback_ids.h"
#include "cupti/cupti_backend.h"
#include "cupti/pc_sampling_decoder.h"
#include "cupti/testing/fake_cupti.h"

namespace proton::cupti {
namespace {

using testing::EmitLaunch;
using testing::Fake;
using FakeCupti = testing::FakeCupti;

size_t Metric(std::string_view name) {
  return static_cast<size_t>(std::find(kPcSamplingNames.begin(), kPcSamplingNames.end(), name) -
                             kPcSamplingNames.begin());
}

TEST(PcSamplingRules, IntervalMapsToTheNearestPowerOfTwoWithinCuptisRange) {
  EXPECT_EQ(IntervalToExponent(1000), 10);  // PCSampling()'s default interval
  EXPECT_EQ(IntervalToExponent(1024), 10);
  EXPECT_EQ(IntervalToExponent(1535), 10);
  EXPECT_EQ(IntervalToExponent(1536), 10);  // a tie takes the lower power
  EXPECT_EQ(IntervalToExponent(1537), 11);
  EXPECT_EQ(IntervalToExponent(1), 5);
  EXPECT_EQ(IntervalToExponent(31), 5);
  EXPECT_EQ(IntervalToExponent(100), 7);
  EXPECT_EQ(IntervalToExponent(uint64_t{1} << 31), 31);
  EXPECT_EQ(IntervalToExponent(uint64_t{1} << 40), 31);
  EXPECT_EQ(IntervalToExponent(UINT64_MAX), 31);
  EXPECT_EQ(SamplingExponentOfMode("pcsampling"), 10);
  EXPECT_EQ(SamplingExponentOfMode("pcsampling:interval=4096"), 12);
  EXPECT_EQ(SamplingExponentOfMode("pcsampling:interval=99999999999999999999999"), 31);
}

std::vector<std::string> HopperNames() {
  testing::ResetFake();
  testing::OfferHopperStallReasons();
  return Fake().stall_reason_names;
}

TEST(PcSamplingRules, StallReasonsMatchTheCounterNamesAsTheReferenceDoes) {
  std::vector<std::string> names = HopperNames();
  std::vector<uint32_t> indices = Fake().stall_reason_indices;
  StallReasonTable table = MatchStallReasons(names, indices);
  EXPECT_EQ(table.available, 38u);
  // 19 reasons and their _not_issued twins, less not_selected and gmma (no counter name).
  EXPECT_EQ(table.indices.size(), 34u);
  std::set<size_t> fed;
  for (auto& [index, reason] : table.by_index) {
    fed.insert(reason.metric);
    EXPECT_EQ(reason.not_issued, names[index].find("not_issued") != std::string::npos);
  }
  EXPECT_FALSE(fed.count(Metric("stalled_not_Selected")));
  EXPECT_FALSE(fed.count(Metric("num_samples")));
  EXPECT_EQ(fed.size(), 17u);
  EXPECT_EQ(table.by_index.at(34).metric, Metric("stalled_selected"));
  EXPECT_EQ(table.by_index.at(2).metric, Metric("stalled_no_instruction"));
  EXPECT_FALSE(table.by_index.count(26));  // ..._stalled_not_selected
}

TEST(PcSamplingRules, NotIssuedReasonsCountSamplesButNoStalledSamples) {
  std::vector<std::string> names = HopperNames();
  StallReasonTable table = MatchStallReasons(names, Fake().stall_reason_indices);
  CUpti_PCSamplingStallReason reasons[] = {{12, 5}, {13, 7}, {34, 2}, {99, 4}};
  CUpti_PCSamplingPCData pc{};
  pc.stallReasonCount = 4;
  pc.stallReason = reasons;
  PcCounters counters{};
  EXPECT_EQ(AddPcRecord(table, pc, &counters), 4u);  // index 99 was never configured
  PcCounters expected{};
  expected[Metric("num_samples")] = 14;
  expected[Metric("num_stalled_samples")] = 7;
  expected[Metric("stalled_barrier")] = 5;
  expected[Metric("stalled_selected")] = 2;
  EXPECT_EQ(counters, expected);
}

TEST(PcSamplingRules, AbiGuardAndPermissionMessage) {
  EXPECT_TRUE(CheckPcRecordAbi(22, 130001).ok());
  EXPECT_TRUE(CheckPcRecordAbi(21, 20).ok());
  Status old_library = CheckPcRecordAbi(21, 130001);
  ASSERT_FALSE(old_library.ok());
  EXPECT_NE(old_library.message().find("library has API version 21, the headers 130001"),
            std::string::npos);
  EXPECT_FALSE(CheckPcRecordAbi(130001, 21).ok());
  EXPECT_EQ(
      PcSamplingCallError(nullptr, "cuptiPCSamplingEnable", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES),
      "cuptiPCSamplingEnable failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35): the user "
      "does not have permission to access NVIDIA GPU Performance Counters "
      "(ERR_NVGPUCTRPERM); load the nvidia kernel module with "
      "NVreg_RestrictProfilingToAdminUsers=0 or run as root");
  EXPECT_EQ(FormatSourceLocation("/src", "k.py", 12, "kern"), "/src/k.py:12@kern");
  EXPECT_EQ(FormatSourceLocation("/src", "", 12, "kern"), "");
}

struct SeenSamples {
  uint64_t correlation_id;
  std::map<std::pair<std::string, std::string>, PcCounters> by_place;
};

class PcSink : public BackendSink {
 public:
  void OnLaunchEnter(uint64_t id, std::string_view, uint32_t expected) override {
    events.push_back("enter " + std::to_string(id) + " " + std::to_string(expected));
  }
  void OnLaunchExit(uint64_t id) override { events.push_back("exit " + std::to_string(id)); }
  void OnKernelRecord(const KernelRecord&) override {}
  void OnBufferCompleted(uint64_t) override {}
  void OnRecordsLost(RecordLoss, uint64_t) override {}
  void OnNvtxPush(std::string_view) override {}
  void OnNvtxPop() override {}
  void OnPcSamples(uint64_t id, std::span<const PcSample> samples) override {
    events.push_back("samples " + std::to_string(id));
    SeenSamples seen{id, {}};
    for (const PcSample& s : samples) {
      seen.by_place[{std::string(s.function), std::string(s.source)}] = s.counters;
    }
    batches.push_back(seen);
  }
  std::vector<std::string> events;
  std::vector<SeenSamples> batches;
};

class PcSamplingBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::ResetFake();
    testing::OfferHopperStallReasons();
    backend_ = std::make_unique<CuptiBackend>(testing::FakeDriverApi(), testing::FakeCuptiApi());
  }
  void TearDown() override {
    backend_.reset();
    SetCommandLineMode(false);
  }
  void Launch(uint32_t id, const char* name = "kern") {
    EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, id, name);
    EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, id, name);
  }
  static FakeCupti::Pc Pc(uint64_t offset, std::vector<std::pair<uint32_t, uint32_t>> reasons,
                          const std::string& function = "kern", uint64_t crc = 77) {
    return FakeCupti::Pc{crc, offset, 3, function, std::move(reasons)};
  }
  PcSink sink_;
  std::unique_ptr<CuptiBackend> backend_;
};

TEST_F(PcSamplingBackendTest, StartUsesSerialisedKernelsAndTheModuleCallbacks) {
  ASSERT_TRUE(backend_->Start(&sink_, "pcsampling").ok());
  ASSERT_EQ(Fake().enabled_kinds.size(), 1u);
  EXPECT_EQ(Fake().enabled_kinds[0], CUPTI_ACTIVITY_KIND_KERNEL);
  std::set<CUpti_CallbackId> resource;
  for (auto [d, id] : Fake().enabled_callbacks) {
    if (d == CUPTI_CB_DOMAIN_RESOURCE) resource.insert(id);
  }
  for (CUpti_CallbackId id : PcSamplingResourceIds()) EXPECT_TRUE(resource.count(id)) << id;
  EXPECT_TRUE(Fake().pc_calls.empty());  // contexts are enabled at their first launch
  backend_->Stop();
  testing::ResetFake();
  ASSERT_TRUE(backend_->Start(&sink_, "").ok());
  EXPECT_EQ(Fake().enabled_kinds[0], CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  for (auto [d, id] : Fake().enabled_callbacks) {
    EXPECT_NE(id, CUPTI_CBID_RESOURCE_MODULE_LOADED);
  }
}

TEST_F(PcSamplingBackendTest, CallOrderAroundLaunchesAndConfiguration) {
  ASSERT_TRUE(backend_->Start(&sink_, "pcsampling:interval=4000").ok());
  Launch(1);
  Launch(2);
  std::vector<std::string> expected = {
      "enable", "num_stall_reasons", "stall_reasons", "configure", "sync", "start",
      "stop",   "get_data",          "sync",          "start",     "stop", "get_data"};
  EXPECT_EQ(Fake().pc_calls, expected);
  const FakeCupti::PcConfig& config = Fake().pc_config;
  EXPECT_EQ(config.attributes, 7);
  EXPECT_EQ(config.stall_reasons.size(), 34u);
  EXPECT_EQ(config.period_exponent, 12u);  // 4000 -> 4096 = 2^12
  EXPECT_EQ(config.hardware_buffer, size_t{128} << 20);
  EXPECT_EQ(config.scratch_buffer, size_t{16} << 20);
  EXPECT_EQ(config.collect_num_pcs, 1024u);
  EXPECT_EQ(config.start_stop_control, 1u);
  EXPECT_EQ(config.collection_mode, CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS);
  // Each sampled launch expects one more record; its samples come before its exit.
  EXPECT_EQ(sink_.events, (std::vector<std::string>{"enter 1 2", "samples 1", "exit 1", "enter 2 2",
                                                    "samples 2", "exit 2"}));
  Fake().pc_calls.clear();
  Fake().calls.clear();
  backend_->Stop();
  EXPECT_EQ(Fake().pc_calls, std::vector<std::string>{"disable"});
  EXPECT_EQ(Fake().calls.front(), "activity_disable");  // sampling stopped first
}

TEST_F(PcSamplingBackendTest, DefaultPeriodIsTwoToTheTen) {
  ASSERT_TRUE(backend_->Start(&sink_, "pcsampling").ok());
  Launch(1);
  EXPECT_EQ(Fake().pc_config.period_exponent, 10u);
}

// 2500 PCs: even offsets stall on barrier (index 12), odd ones were not issued while waiting
// (index 7). Whether CUPTI delivers the first 1024 into the configured buffer at stop (CUDA
// 13.0) or only through reads, every sample is counted once.
void ExpectExactCountsOf2500Pcs(const PcSink& sink) {
  ASSERT_EQ(sink.batches.size(), 1u);
  ASSERT_EQ(sink.batches[0].by_place.size(), 1u);  // no line info: one place, the kernel
  const auto& [place, counters] = *sink.batches[0].by_place.begin();
  EXPECT_EQ(place.first, "kern");
  EXPECT_EQ(place.second, "");
  PcCounters expected{};
  expected[Metric("num_samples")] = uint64_t{2500} * 4;
  expected[Metric("num_stalled_samples")] = uint64_t{1250} * 3 + 2500;
  expected[Metric("stalled_barrier")] = uint64_t{1250} * 3;
  expected[Metric("stalled_wait")] = 0;  // not issued
  expected[Metric("stalled_selected")] = 2500;
  EXPECT_EQ(counters, expected);
}

class PcDeliveryTest : public PcSamplingBackendTest, public ::testing::WithParamInterface<bool> {};

TEST_P(PcDeliveryTest, EveryPcOfTheRangeIsCountedOnceWhereverCuptiDeliversIt) {
  Fake().stop_fills_configured_buffer = GetParam();
  ASSERT_TRUE(backend_->Start(&sink_, "pcsampling").ok());
  for (uint64_t i = 0; i < 2500; ++i) {
    Fake().pcs_of_next_launch.push_back(Pc(i, {{i % 2 ? 7u : 12u, 3}, {34, 1}}));
  }
  Launch(5);
  // Reads of at most 1024 until none remains: 1476 after the stop's 1024, else all 2500.
  EXPECT_EQ(std::count(Fake().pc_calls.begin(), Fake().pc_calls.end(), "get_data"),
            GetParam() ? 2 : 3);
  ExpectExactCountsOf2500Pcs(sink_);
  Launch(6);  // nothing sampled: an empty batch still releases the launch's record
  ASSERT_EQ(sink_.batches.size(), 2u);
  EXPECT_TRUE(sink_.batches[1].by_place.empty());  // the stop's buffer was emptied
  EXPECT_EQ(backend_->pc_sampler()->total_samples(), 10000u);
}

INSTANTIATE_TEST_SUITE_P(StopOrReads, PcDeliveryTest, ::testing::Bool());

TEST_F(PcSamplingBackendTest, ReadsUseABufferOtherThanTheConfiguredOne) {
  ASSERT_TRUE(backend_->Start(&sink_, "pcsampling").ok());
  Fake().pcs_of_next_launch.push_back(Pc(1, {{12, 1}}));
  Launch(1);
  ASSERT_NE(Fake().pc_configured_buffer, nullptr);
  EXPECT_NE(Fake().pc_last_read_buffer, nullptr);
  EXPECT_NE(Fake().pc_last_read_buffer, Fake().pc_configured_buffer);
}

TEST_F(PcSamplingBackendTest, SourceLinesFromTheLoadedCubin) {
  ASSERT_TRUE(backend_->Start(&sink_, "pcsampling").ok());
  std::vector<char> cubin = {'c', 'u', 'b', 'i', 'n'};
  testing::EmitModuleLoaded(cubin);
  uint64_t crc = testing::FakeCubinCrc(cubin);
  Fake().sass_dir = "/src";
  Fake().sass_file = "k.py";
  Fake().sass_line = 12;
  Fake().pcs_of_next_launch = {Pc(16, {{12, 2}}, "kern", crc), Pc(16, {{4, 1}}, "kern", crc),
                               Pc(32, {{12, 5}}, "kern", 999)};
  Launch(1);
  ASSERT_EQ(sink_.batches.size(), 1u);
  auto& places = sink_.batches[0].by_place;
  ASSERT_EQ(places.size(), 2u);
  PcCounters at_line = places.at({"kern", "/src/k.py:12@kern"});
  EXPECT_EQ(at_line[Metric("num_samples")], 3u);
  EXPECT_EQ(at_line[Metric("stalled_short_scoreboard")], 1u);
  // An unknown cubin (loaded before profiling) has no line: the kernel's node.
  EXPECT_EQ(places.at({"kern", ""})[Metric("stalled_barrier")], 5u);
  // One query per PC of the known cubin: cached afterwards.
  EXPECT_EQ(Fake().sass_queries, std::vector<std::string>{"kern@16"});
  testing::EmitModuleLoaded(cubin, /*unloading=*/true);
  Fake().pcs_of_next_launch = {Pc(48, {{12, 1}}, "kern", crc)};
  Launch(2);
  EXPECT_TRUE(sink_.batches[1].by_place.count({"kern", ""}));  // unloaded: no line any more
}

TEST_F(PcSamplingBackendTest, NoPermissionIsOneClearLineAndKernelsStillRun) {
  Fake().pc_enable_result = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  ASSERT_TRUE(backend_->Start(&sink_, "pcsampling").ok());
  ::testing::internal::CaptureStderr();
  Launch(1);
  Launch(2);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err,
            "[proton] warning: PC sampling: cuptiPCSamplingEnable failed: "
            "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35): the user does not have permission to "
            "access NVIDIA GPU Performance Counters (ERR_NVGPUCTRPERM); load the nvidia kernel "
            "module with NVreg_RestrictProfilingToAdminUsers=0 or run as root; kernels run "
            "unsampled\n");
  EXPECT_EQ(Fake().pc_calls, std::vector<std::string>{"enable"});  // not retried
  EXPECT_EQ(sink_.batches.size(), 2u);  // every launch's extra record is still released
  Fake().pc_calls.clear();
  backend_->Stop();
  EXPECT_TRUE(Fake().pc_calls.empty());  // never enabled: nothing to disable
}

TEST_F(PcSamplingBackendTest, StartFailureIsReportedOnceAndTheLaunchGoesOn) {
  Fake().pc_start_result = CUPTI_ERROR_NOT_SUPPORTED;
  ASSERT_TRUE(backend_->Start(&sink_, "pcsampling").ok());
  ::testing::internal::CaptureStderr();
  Launch(1);
  Launch(2);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err,
            "[proton] warning: PC sampling: cuptiPCSamplingStart failed: "
            "CUPTI_ERROR_NOT_SUPPORTED (27); launches run unsampled\n");
  EXPECT_EQ(std::count(Fake().pc_calls.begin(), Fake().pc_calls.end(), "stop"), 0);
  EXPECT_EQ(sink_.batches.size(), 2u);
}

TEST_F(PcSamplingBackendTest, OldLibraryAcrossThePcRecordAbiIsRefused) {
  Fake().library_version = 21;
  Status status = backend_->Start(&sink_, "pcsampling");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("CUPTI 12.4 (API version 22)"), std::string::npos);
  EXPECT_FALSE(Fake().subscribed);
  SetCommandLineMode(true);
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(backend_->Start(&sink_, "pcsampling").ok());
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.rfind("[proton] warning: mode pcsampling needs a CUPTI library", 0), 0u) << err;
  EXPECT_NE(err.find("runs unprofiled"), std::string::npos);
}

TEST_F(PcSamplingBackendTest, LibraryWithoutThePcSamplingApiIsRefused) {
  CuptiApi api = *testing::FakeCuptiApi();
  api.pc_sampling_get_data = nullptr;
  CuptiBackend backend(testing::FakeDriverApi(), &api);
  Status status = backend.Start(&sink_, "pcsampling");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "mode pcsampling needs cuptiPCSamplingGetData, which /fake/libcupti.so does not "
            "export");
  EXPECT_TRUE(backend.Start(&sink_, "").ok());  // the kernel mode does not need it
}

TEST_F(PcSamplingBackendTest, SecondSubscriberKeepsTheExistingMessage) {
  Fake().subscribe_result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  Status status = backend_->Start(&sink_, "pcsampling");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            CuptiBackend::SubscribeErrorMessage(testing::FakeCuptiApi(),
                                                CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED));
}

TEST_F(PcSamplingBackendTest, FlushWaitsForTheSampledLaunchInFlight) {
  ASSERT_TRUE(backend_->Start(&sink_, "pcsampling").ok());
  EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, 1, "kern");
  std::atomic<bool> flushed{false};
  std::thread flusher([&] {
    backend_->Flush(false);
    flushed = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(flushed.load());  // sampling is on: no activity flush meanwhile
  int flushes_before = Fake().flush_count;
  EmitLaunch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, 1, "kern");
  flusher.join();
  EXPECT_TRUE(flushed.load());
  EXPECT_EQ(flushes_before, 0);
  EXPECT_GT(Fake().flush_count, 0);
}

TEST_F(PcSamplingBackendTest, DestroyedContextIsDisabledAndForgotten) {
  ASSERT_TRUE(backend_->Start(&sink_, "pcsampling").ok());
  Launch(1);
  testing::EmitContextDestroying(testing::FakeContext());
  EXPECT_EQ(Fake().pc_calls.back(), "disable");
  Fake().pc_calls.clear();
  Launch(2);  // a new context at the same address is enabled again
  EXPECT_EQ(Fake().pc_calls.front(), "enable");
}

}  // namespace
}  // namespace proton::cupti
