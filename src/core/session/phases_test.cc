// Tests of phases and periodic flushing through the public API with the fake backend
// (profiler.md §1.7, §3.11, §5.14; formats.md §5): records land in their launch's phase
// whatever order they arrive in, completion is exact, and periodic flushing writes each
// completed phase on its own thread and frees it.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/session/write_data.h"
#include "core/testing/fake_backend.h"
#include "core/testing/json_reader.h"
#include "core/testing/test_util.h"
#include "proton/proton.h"

namespace proton {
namespace {

namespace fs = std::filesystem;

class PhaseTest : public testing::Test {
 protected:
  void SetUp() override {
    test::ResetCore();
    FakeBackend::Register();
    dir_ = test::TempDir();
  }
  void TearDown() override {
    test::ResetCore();
    fs::remove_all(dir_);
  }
  int StartFake(const std::string& name, const std::string& mode = "",
                const std::string& data = "tree") {
    StartOptions o;
    o.name = dir_ + "/" + name;
    o.backend = "fake";
    o.mode = mode;
    o.data = data;
    auto r = Start(o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    fake_ = FakeBackend::Current();
    return r.ok() && r->has_value() ? **r : -1;
  }
  // Kernel count of ROOT/<path...> in phase `phase` of `session` (-1 when absent).
  int64_t CountAt(int session, int phase, const std::vector<std::string>& path) {
    auto text = GetJson(session, phase);
    if (!text.ok()) return -1;
    test::Json doc = test::ParseOrDie(*text);
    const test::Json* node = test::NodeAt(doc, path);
    return node == nullptr ? -1 : (*node)["metrics"]["count"].i;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // Waits up to 5 s for `path` (the phase writer runs on its own thread).
  static bool WaitForFile(const std::string& path) {
    for (int i = 0; i < 500 && !fs::exists(path); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return fs::exists(path);
  }
  void Scoped(const std::string& scope, const std::string& kernel, int launches) {
    uint64_t id = NewScopeId();
    EnterScope(id, scope);
    for (int i = 0; i < launches; ++i) fake_->LaunchAndRun(kernel, 100);
    ASSERT_TRUE(ExitScope(id, scope).ok());
  }
  // AdvancePhase and IsPhaseComplete that must succeed.
  static int Advanced(int session) {
    Result<int> r = AdvancePhase(session);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : -1;
  }
  static bool Complete(int session, int phase) {
    Result<bool> r = IsPhaseComplete(session, phase);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() && *r;
  }
  std::string dir_;
  FakeBackend* fake_ = nullptr;
};

TEST_F(PhaseTest, LateRecordsLandInTheirLaunchPhase) {
  int s = StartFake("late");
  Scoped("step", "k", 2);  // phase 0, records queued
  EXPECT_EQ(Advanced(s), 1);
  Scoped("step", "k", 3);  // phase 1
  EXPECT_EQ(Advanced(s), 2);
  fake_->CompleteBuffer({4, 3, 2, 1, 0});  // phase 1's records first, all after two advances
  EXPECT_EQ(CountAt(s, 0, {"step", "k"}), 2);
  EXPECT_EQ(CountAt(s, 1, {"step", "k"}), 3);
  EXPECT_EQ(CountAt(s, 2, {"step", "k"}), -1);  // the current phase has nothing yet
}

TEST_F(PhaseTest, CompletionWaitsForTheLastRecordOfThePhase) {
  int s = StartFake("complete");
  Scoped("a", "k", 2);
  EXPECT_FALSE(Complete(s, 0));  // the current phase is never complete
  ASSERT_EQ(Advanced(s), 1);
  fake_->CompleteBuffer({0});  // one of phase 0's two records
  EXPECT_FALSE(Complete(s, 0));
  fake_->CompleteBuffer();
  EXPECT_TRUE(Complete(s, 0));
  EXPECT_FALSE(Complete(s, 1));
  EXPECT_FALSE(Complete(s, 7));  // never existed
  ASSERT_EQ(Advanced(s), 2);
  EXPECT_TRUE(Complete(s, 1));  // launched nothing: complete once sealed
}

TEST_F(PhaseTest, DeactivateWithFlushingCompletesEverySealedPhase) {
  int s = StartFake("deactivate");
  Scoped("a", "k", 1);
  ASSERT_EQ(Advanced(s), 1);
  Scoped("a", "k", 1);
  ASSERT_EQ(Advanced(s), 2);
  EXPECT_FALSE(Complete(s, 0));
  ASSERT_TRUE(Deactivate(s, /*flushing=*/true).ok());
  EXPECT_TRUE(Complete(s, 0));
  EXPECT_TRUE(Complete(s, 1));
  EXPECT_FALSE(Complete(s, 2));
  EXPECT_EQ(CountAt(s, 1, {"a", "k"}), 1);
}

TEST_F(PhaseTest, ScopesOpenAcrossAnAdvanceContinueInTheNewPhase) {
  int s = StartFake("open");
  uint64_t outer = NewScopeId();
  EnterScope(outer, "outer");
  fake_->LaunchAndRun("k", 100);
  ASSERT_EQ(Advanced(s), 1);
  fake_->LaunchAndRun("k", 100);
  fake_->LaunchAndRun("k", 100);
  ASSERT_TRUE(AddMetrics(outer, {{"flops", int64_t{5}}}).ok());
  ASSERT_TRUE(ExitScope(outer, "outer").ok());
  fake_->CompleteBuffer();
  EXPECT_EQ(CountAt(s, 0, {"outer", "k"}), 1);
  EXPECT_EQ(CountAt(s, 1, {"outer", "k"}), 2);
  test::Json doc = test::ParseOrDie(GetJson(s, 1).value());
  EXPECT_EQ((*test::NodeAt(doc, {"outer"}))["metrics"]["flops"].d, 5.0);  // roofline: a float
}

TEST_F(PhaseTest, ThreadsFollowingTheMainThreadFollowItIntoTheNewPhase) {
  int s = StartFake("d9");
  uint64_t scope = NewScopeId();
  EnterScope(scope, "step");
  ASSERT_EQ(Advanced(s), 1);  // on the main thread, which republishes its top at once
  std::thread([this] { fake_->LaunchAndRun("bwd", 100); }).join();
  ASSERT_TRUE(ExitScope(scope, "step").ok());
  fake_->CompleteBuffer();
  EXPECT_EQ(CountAt(s, 1, {"step", "bwd"}), 1);
}

TEST_F(PhaseTest, GetAndClearPerPhase) {
  int s = StartFake("clear");
  Scoped("a", "k", 1);
  ASSERT_EQ(Advanced(s), 1);
  Scoped("b", "k", 1);
  ASSERT_EQ(Advanced(s), 2);
  Scoped("c", "k", 1);
  fake_->CompleteBuffer();
  ASSERT_TRUE(Clear(s, 0).ok());
  EXPECT_EQ(GetJson(s, 0).status().message(), "[PROTON] Phase 0 has no data.");
  EXPECT_EQ(GetMsgpack(s, 9).status().message(), "[PROTON] Phase 9 has no data.");
  EXPECT_EQ(CountAt(s, 1, {"b", "k"}), 1);
  ASSERT_TRUE(Clear(s, 2, /*clear_up_to_phase=*/true).ok());
  EXPECT_FALSE(GetJson(s, 1).ok());
  EXPECT_EQ(CountAt(s, 2, {"c", "k"}), -1);  // the current phase restarts empty...
  Scoped("d", "k", 1);                       // ...and keeps recording
  fake_->CompleteBuffer();
  EXPECT_EQ(CountAt(s, 2, {"d", "k"}), 1);
}

TEST_F(PhaseTest, UnknownSessionsAreOneClearError) {
  StartFake("known");
  EXPECT_EQ(AdvancePhase(5).status().message(), "Session has not been initialized: 5");
  EXPECT_EQ(IsPhaseComplete(5, 0).status().message(), "Session has not been initialized: 5");
  ASSERT_TRUE(Finalize(0).ok());
  EXPECT_EQ(AdvancePhase(0).status().message(), "Session has not been initialized: 0");
}

TEST_F(PhaseTest, FinalizeWritesEveryHeldPhaseAsAPart) {
  int s = StartFake("parts");
  Scoped("a", "k", 1);
  ASSERT_EQ(Advanced(s), 1);
  Scoped("b", "k", 2);
  ASSERT_TRUE(Finalize(s).ok());
  EXPECT_FALSE(fs::exists(dir_ + "/parts.hatchet"));
  std::string part0 = Read(dir_ + "/parts.part_0.hatchet");
  std::string part1 = Read(dir_ + "/parts.part_1.hatchet");
  ASSERT_FALSE(part0.empty());
  EXPECT_EQ(part0.front(), '\n');  // the normal layout at finalize (formats.md §5)
  test::Json doc = test::ParseOrDie(part1);
  EXPECT_EQ((*test::NodeAt(doc, {"b", "k"}))["metrics"]["count"].i, 2);
  // The end marker follows the last part (formats.md §5).
  EXPECT_EQ(Read(dir_ + "/parts.done"), "{\"parts\":2}\n");
}

TEST_F(PhaseTest, PeriodicFlushingWritesCompletedPhasesDuringTheRun) {
  int s = StartFake("run", "periodic_flushing");
  Scoped("step", "k", 3);
  ASSERT_EQ(Advanced(s), 1);
  Scoped("step", "k", 1);
  std::string part0 = dir_ + "/run.part_0.hatchet";
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(fs::exists(part0));  // its records have not arrived
  fake_->CompleteBuffer();
  ASSERT_TRUE(WaitForFile(part0));
  std::string text = Read(part0);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.front(), '[');  // compact JSON during the run
  EXPECT_EQ((*test::NodeAt(test::ParseOrDie(text), {"step", "k"}))["metrics"]["count"].i, 3);
  EXPECT_GT(fake_->completed_flushes(), 0);  // the writer asked for finished records
  EXPECT_EQ(GetJson(s, 0).status().message(), "[PROTON] Phase 0 has no data.");  // freed
  EXPECT_TRUE(Complete(s, 0));
  EXPECT_FALSE(fs::exists(dir_ + "/run.done"));  // the run goes on
  ASSERT_TRUE(Finalize(s).ok());
  std::string part1 = Read(dir_ + "/run.part_1.hatchet");
  EXPECT_EQ((*test::NodeAt(test::ParseOrDie(part1), {"step", "k"}))["metrics"]["count"].i, 1);
  // One part from the writer thread, one from finalize.
  EXPECT_EQ(Read(dir_ + "/run.done"), "{\"parts\":2}\n");
}

TEST_F(PhaseTest, TheEndMarkerIsWrittenEvenWhenFinalizeHasNoPartLeft) {
  int s = StartFake("tail", "periodic_flushing");
  Scoped("step", "k", 1);
  ASSERT_EQ(Advanced(s), 1);  // phase 1 records nothing: finalize writes no part
  fake_->CompleteBuffer();
  ASSERT_TRUE(WaitForFile(dir_ + "/tail.part_0.hatchet"));
  EXPECT_FALSE(fs::exists(dir_ + "/tail.done"));
  ASSERT_TRUE(Finalize(s).ok());
  EXPECT_FALSE(fs::exists(dir_ + "/tail.part_1.hatchet"));
  EXPECT_EQ(Read(dir_ + "/tail.done"), "{\"parts\":1}\n");
}

TEST_F(PhaseTest, ARunWithoutPartsWritesNoEndMarker) {
  int s = StartFake("plain", "periodic_flushing");
  Scoped("step", "k", 1);
  ASSERT_TRUE(Finalize(s).ok());
  EXPECT_TRUE(fs::exists(dir_ + "/plain.hatchet"));
  EXPECT_FALSE(fs::exists(dir_ + "/plain.done"));
}

TEST(EndMarkerPath, ReplacesThePartEnding) {
  EXPECT_EQ(EndMarkerPath("out/run.rank3.part_7.hatchet"), "out/run.rank3.done");
  EXPECT_EQ(EndMarkerPath("run.part_0.hatchet_msgpack"), "run.done");
  EXPECT_EQ(EndMarkerPath("a.part_1/run.hatchet"), "");  // the part is a folder's name
  EXPECT_EQ(EndMarkerPath("run.part_x.hatchet"), "");
  EXPECT_EQ(EndMarkerPath("run.part_3"), "");
  EXPECT_EQ(EndMarkerPath("run.hatchet"), "");
}

TEST_F(PhaseTest, APartThatCannotBeWrittenIsKeptForFinalize) {
  int s = StartFake("fail", "periodic_flushing");
  std::string part0 = dir_ + "/fail.part_0.hatchet";
  fs::create_directories(part0);  // the rename onto it fails
  Scoped("step", "k", 2);
  ASSERT_EQ(Advanced(s), 1);
  testing::internal::CaptureStderr();
  fake_->CompleteBuffer();
  for (int i = 0; i < 500 && !Complete(s, 0); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the writer tried
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("phase 0 of session"), std::string::npos) << err;
  EXPECT_EQ(CountAt(s, 0, {"step", "k"}), 2);  // still held
  fs::remove_all(part0);
  ASSERT_TRUE(Finalize(s).ok());
  EXPECT_EQ((*test::NodeAt(test::ParseOrDie(Read(part0)), {"step", "k"}))["metrics"]["count"].i, 2);
}

TEST_F(PhaseTest, PeriodicFlushingInMessagePack) {
  int s = StartFake("mp", "periodic_flushing:format=hatchet_msgpack");
  Scoped("step", "k", 1);
  ASSERT_EQ(Advanced(s), 1);
  fake_->CompleteBuffer();
  ASSERT_TRUE(WaitForFile(dir_ + "/mp.part_0.hatchet_msgpack"));
  Scoped("step", "k", 1);  // finalize writes phase 1 in the flush format too
  ASSERT_EQ(Advanced(s), 2);
  ASSERT_TRUE(Finalize(s).ok());
  EXPECT_TRUE(fs::exists(dir_ + "/mp.part_1.hatchet_msgpack"));
  EXPECT_FALSE(fs::exists(dir_ + "/mp.part_1.hatchet"));
  // Phase 2 recorded nothing: no part (profiler.md §3.11).
  EXPECT_FALSE(fs::exists(dir_ + "/mp.part_2.hatchet_msgpack"));
}

TEST_F(PhaseTest, OnlyASessionThatWroteNoPartWritesAnEmptyLastPhase) {
  int s = StartFake("empty", "periodic_flushing");
  ASSERT_EQ(Advanced(s), 1);
  ASSERT_EQ(Advanced(s), 2);
  ASSERT_TRUE(Finalize(s).ok());
  EXPECT_FALSE(fs::exists(dir_ + "/empty.part_0.hatchet"));
  EXPECT_FALSE(fs::exists(dir_ + "/empty.part_1.hatchet"));
  EXPECT_TRUE(fs::exists(dir_ + "/empty.part_2.hatchet"));
}

TEST_F(PhaseTest, PeriodicFlushingFormatMustFitTheData) {
  StartOptions o;
  o.name = dir_ + "/bad";
  o.backend = "fake";
  o.mode = "periodic_flushing:format=chrome_trace";
  auto r = Start(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("chrome_trace"), std::string::npos);
  o.mode = "periodic_flushing:format=bogus";
  EXPECT_EQ(Start(o).status().message(),
            "Unknown format for periodic_flushing: bogus (accepted: hatchet, hatchet_msgpack, "
            "chrome_trace, perfetto_trace)");
  o.mode = "periodic_flushing:format=perfetto_trace";
  EXPECT_EQ(Start(o).status().message(),
            "periodic_flushing:format=perfetto_trace cannot write data=\"tree\" (chrome_trace "
            "and perfetto_trace are for data=\"trace\", hatchet and hatchet_msgpack for "
            "data=\"tree\")");
  o.mode = "periodic_flushing:every=3";
  EXPECT_FALSE(Start(o).ok());
  o.mode = "periodic_flushing";
  o.data = "trace";  // a trace session's parts default to chrome_trace
  EXPECT_TRUE(Start(o).ok());
}

TEST_F(PhaseTest, LaunchesRacingWithAdvanceAreNeverLost) {
  int s = StartFake("race", "periodic_flushing");
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> launches{0};
  std::thread launcher([&] {
    while (!stop.load()) {
      fake_->Launch("k");
      launches.fetch_add(1);
    }
  });
  while (launches.load() == 0) std::this_thread::yield();
  constexpr int kPhases = 100;
  for (int i = 0; i < kPhases; ++i) {
    ASSERT_EQ(Advanced(s), i + 1);
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  stop.store(true);
  launcher.join();
  // Every launch's record, each applied in the phase its launch captured.
  for (uint64_t id = 1; id <= launches.load(); ++id) fake_->Queue(FakeRecord{id, "k", 1, 2});
  fake_->CompleteBuffer();
  ASSERT_TRUE(Finalize(s).ok());
  int64_t total = 0;
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    if (entry.path().extension() == ".done") continue;  // the end marker, no profile
    test::Json doc = test::ParseOrDie(Read(entry.path()));
    if (const test::Json* k = test::NodeAt(doc, {"k"})) total += (*k)["metrics"]["count"].i;
    ++files;
  }
  // A phase that caught no launch writes no part (§3.11).
  EXPECT_GE(files, 1);
  EXPECT_LE(files, kPhases + 1);
  EXPECT_EQ(total, static_cast<int64_t>(launches.load()));
}

}  // namespace
}  // namespace proton
