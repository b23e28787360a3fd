// PROTON_RECORD round trip (profiler.md §5.15, N19 without a GPU): a fake-backend run is
// recorded, the recording is replayed, and the replay writes the same files byte for byte.
#include <gtest/gtest.h>

#include <thread>

#include "core/record/recorder.h"
#include "core/testing/fake_backend.h"
#include "core/testing/recording_replay.h"
#include "core/testing/test_util.h"
#include "proton/proton.h"

namespace proton {
namespace {

void Workload(const std::string& dir) {
  StartOptions o;
  o.name = dir + "/tree";
  o.backend = "fake";
  int s0 = Start(o)->value();
  FakeBackend* fake = FakeBackend::Current();
  o.name = dir + "/trace";
  o.data = "trace";
  int s1 = Start(o)->value();
  uint64_t a = NewScopeId();
  EnterScope(a, "add_phase");
  ASSERT_TRUE(AddMetrics(a, {{"flops16", int64_t{7}},
                             {"v", std::vector<double>{0.5, 1}},
                             {"ex (exc)", int64_t{-3}}})
                  .ok());
  EnterState("__proton_launch_metadata:add_kernel");
  fake->LaunchAndRun("helper", 11);
  ExitState();
  uint64_t op = NewScopeId();
  EnterOp(op, "add_1048576");
  ASSERT_TRUE(AddOpMetrics(op, {{"bytes", 12.0}, {"flops32", int64_t{4}}}).ok());
  fake->LaunchAndRun("add_kernel", 2240);
  ExitOp(op);
  std::thread helper([&] {
    // D9: no own scope: attributed to the main thread's current stack.
    uint64_t corr = fake->NextCorrelationId();
    fake->sink()->OnLaunchEnter(corr, "bwd", 1);
    fake->sink()->OnLaunchExit(corr);
    fake->Queue(FakeRecord{corr, "bwd", 9000, 9500, 0, 13, 0, 0});
  });
  helper.join();
  ASSERT_TRUE(ExitScope(a, "add_phase").ok());
  fake->sink()->OnNvtxPush("range");
  fake->LaunchAndRun("nvjet", 5000);
  fake->sink()->OnNvtxPop();
  fake->CompleteBuffer({1, 0});
  ASSERT_TRUE(Deactivate(s1).ok());
  fake->LaunchAndRun("late", 100);  // delivered by the finalize flush
  fake->Drop(2);
  ASSERT_TRUE(Finalize(s1).ok());
  ASSERT_TRUE(Finalize(s0, "hatchet_msgpack").ok());
}

// The recording keeps no CPU clock or OS thread id, so a replayed trace's CPU events (scopes,
// metric events, launch ends of flows) have other times and lane names: mask times and CPU
// thread ids, and compare the kernel events' times on their own.
// Replaces what follows each `marker` while it is one of `chars` by `mask`. (No std::regex:
// GCC 12 warns inside <regex> under ASan at -O2, and warnings are errors.)
std::string MaskAfter(const std::string& text, std::string_view marker, std::string_view chars,
                      std::string_view mask) {
  std::string out;
  size_t pos = 0;
  for (size_t hit = text.find(marker); hit != std::string::npos; hit = text.find(marker, pos)) {
    size_t end = hit + marker.size();
    while (end < text.size() && chars.find(text[end]) != std::string_view::npos) ++end;
    out.append(text, pos, hit + marker.size() - pos).append(mask);
    pos = end;
  }
  return out.append(text, pos, std::string::npos);
}

std::string MaskCpu(const std::string& trace) {
  constexpr std::string_view kNumber = "-+.0123456789e";
  std::string out = MaskAfter(trace, "\"ts\":", kNumber, "T");
  out = MaskAfter(out, "\"dur\":", kNumber, "T");
  return MaskAfter(out, "CPU Thread ", "0123456789", "N");
}

std::vector<std::pair<double, double>> KernelTimes(const std::string& trace) {
  std::vector<std::pair<double, double>> times;
  const test::Json doc = test::ParseOrDie(trace);  // the loop's range must outlive it
  for (const test::Json& e : doc["traceEvents"].array) {
    if (const test::Json* cat = e.Find("cat"); cat != nullptr && cat->s == "kernel") {
      times.emplace_back(e["ts"].d, e["dur"].d);
    }
  }
  return times;
}

TEST(Recording, ReplayReproducesFilesByteForByte) {
  test::ResetCore();
  std::string dir = test::TempDir();
  std::string record_path = dir + "/rec.jsonl";
  SetRecordPath(record_path);
  Workload(dir + "/run");
  SetRecordPath("");
  test::ResetCore();
  std::string recording = test::ReadFile(record_path);
  ASSERT_NE(recording.find("\"ev\":\"device\""), std::string::npos);
  ASSERT_NE(recording.find("\"ev\":\"record\""), std::string::npos);
  Status st = test::ReplayRecording(recording, [&](const std::string& name) {
    return dir + "/replay" + name.substr(name.rfind('/'));
  });
  ASSERT_TRUE(st.ok()) << st.message();
  for (const char* file : {"/tree.hatchet_msgpack", "/trace.chrome_trace"}) {
    std::string a = test::ReadFile(dir + "/run" + file);
    std::string b = test::ReadFile(dir + "/replay" + file);
    EXPECT_FALSE(a.empty()) << file;
    if (std::string_view(file) == "/trace.chrome_trace") {
      EXPECT_EQ(MaskCpu(a), MaskCpu(b));
      EXPECT_EQ(KernelTimes(a), KernelTimes(b));
      EXPECT_NE(a.find("\"cat\":\"flow\""), std::string::npos);
    } else {
      EXPECT_EQ(a, b) << file;
    }
  }
  test::ResetCore();
}

}  // namespace
}  // namespace proton
