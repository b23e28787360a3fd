// The runtime object (runtime.h): runtimes own their sessions, apply their options, and drop
// their sessions in a forked child.
#include "core/runtime/runtime.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/session/phase_writer.h"
#include "core/session/session_manager.h"
#include "core/testing/fake_backend.h"
#include "core/testing/fork_child.h"
#include "core/testing/test_util.h"
#include "proton/proton.h"

namespace proton {
namespace {

namespace fs = std::filesystem;

class RuntimeTest : public testing::Test {
 protected:
  void SetUp() override { dir_ = test::TempDir(); }
  void TearDown() override { fs::remove_all(dir_); }
  StartOptions Named(const std::string& name) {
    StartOptions o;
    o.name = dir_ + "/" + name;
    o.backend = "fake";
    return o;
  }
  static RuntimeOptions WithFake() {
    RuntimeOptions options;
    options.backends.push_back(FakeBackend::Registration());
    return options;
  }
  std::string dir_;
};

// The command's -f (profiler.md §2.1): a finalize given no format writes the runtime's
// default one; a format given explicitly still wins.
TEST_F(RuntimeTest, DefaultOutputFormatIsWhatFinalizeWritesWhenGivenNone) {
  RuntimeOptions options = WithFake();
  options.default_output_format = "perfetto_trace";
  Runtime runtime(options);
  StartOptions trace = Named("t");
  trace.data = "trace";
  ASSERT_TRUE(runtime.sessions().Start(trace, /*cli_start=*/false).ok());
  ASSERT_TRUE(runtime.sessions().Finalize(std::nullopt, "").ok());
  EXPECT_TRUE(fs::exists(dir_ + "/t.perfetto_trace"));
  EXPECT_FALSE(fs::exists(dir_ + "/t.chrome_trace"));
  ASSERT_TRUE(runtime.sessions().Start(trace, /*cli_start=*/false).ok());
  ASSERT_TRUE(runtime.sessions().Finalize(std::nullopt, "chrome_trace").ok());
  EXPECT_TRUE(fs::exists(dir_ + "/t.chrome_trace"));
}

TEST_F(RuntimeTest, TwoRuntimesDoNotShareSessions) {
  Runtime a(WithFake());
  Runtime b(WithFake());
  auto first = a.sessions().Start(Named("a"), /*cli_start=*/false);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->value_or(-1), 0);
  EXPECT_EQ(a.sessions().session_count(), 1u);
  EXPECT_EQ(b.sessions().session_count(), 0u);
  EXPECT_TRUE(a.sessions().profiling_on());
  EXPECT_FALSE(b.sessions().profiling_on());
  EXPECT_TRUE(a.sessions().backend_running());
  EXPECT_FALSE(b.sessions().backend_running());
  // Session ids count per runtime.
  auto other = b.sessions().Start(Named("b"), /*cli_start=*/false);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->value_or(-1), 0);
  EXPECT_EQ(b.sessions().Finalize(1, "").message(), "");  // no session 1 here: nothing to do
  ASSERT_TRUE(a.sessions().Finalize(std::nullopt, "").ok());
  EXPECT_TRUE(fs::exists(dir_ + "/a.hatchet"));
  EXPECT_FALSE(fs::exists(dir_ + "/b.hatchet"));
  EXPECT_EQ(b.sessions().session_count(), 1u);
  EXPECT_FALSE(a.is_process_wide());
}

TEST_F(RuntimeTest, BackendsAreTheRuntimesOwn) {
  Runtime with(WithFake());
  Runtime without{RuntimeOptions()};
  EXPECT_NE(with.backends().Find("FAKE"), nullptr);
  EXPECT_EQ(without.backends().Find("fake"), nullptr);
  auto refused = without.sessions().Start(Named("x"), /*cli_start=*/false);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), "Unknown profiler: fake");
  without.backends().Register(FakeBackend::Registration());
  EXPECT_TRUE(without.sessions().Start(Named("x"), /*cli_start=*/false).ok());
}

TEST_F(RuntimeTest, OptionsAreApplied) {
  RuntimeOptions options = WithFake();
  options.command_line_mode = true;
  options.output_path = [](std::string_view name, std::string_view suffix, bool) {
    return std::string(name) + ".named." + std::string(suffix);
  };
  options.exit_finalize = [] {};
  Runtime runtime(std::move(options));
  EXPECT_TRUE(runtime.command_line_mode());
  EXPECT_NE(runtime.exit_finalize(), nullptr);
  EXPECT_EQ(runtime.lazy_cli_start(), nullptr);
  EXPECT_EQ(runtime.OutputPathFor("p", "hatchet", true), "p.named.hatchet");
  // Command-line mode: the API's start is ignored, the command's start runs.
  auto ignored = runtime.sessions().Start(Named("api"), /*cli_start=*/false);
  ASSERT_TRUE(ignored.ok());
  EXPECT_FALSE(ignored->has_value());
  auto cli = runtime.sessions().Start(Named("cli"), /*cli_start=*/true);
  ASSERT_TRUE(cli.ok());
  EXPECT_EQ(cli->value_or(-1), 0);
  ASSERT_TRUE(runtime.sessions().Finalize(std::nullopt, "").ok());
  EXPECT_TRUE(fs::exists(dir_ + "/cli.named.hatchet"));
  Runtime plain{RuntimeOptions()};
  EXPECT_FALSE(plain.command_line_mode());
  EXPECT_EQ(plain.OutputPathFor("p", "hatchet", false), "p.hatchet");
}

TEST_F(RuntimeTest, BackendClockIsTheRuntimes) {
  Runtime runtime(WithFake());
  ASSERT_TRUE(runtime.sessions().Start(Named("c"), /*cli_start=*/false).ok());
  FakeBackend* fake = FakeBackend::Current();
  ASSERT_NE(fake, nullptr);
  EXPECT_NE(runtime.clock().Now(), 0u);
  ASSERT_TRUE(runtime.sessions().Finalize(std::nullopt, "").ok());
}

TEST_F(RuntimeTest, ScopedProcessRuntimeRoutesTheApi) {
  Runtime runtime(WithFake());
  {
    ScopedProcessRuntime use(runtime);
    EXPECT_TRUE(runtime.is_process_wide());
    EXPECT_EQ(&ProcessRuntime(), &runtime);
    auto id = Start(Named("routed"));
    ASSERT_TRUE(id.ok()) << id.status().message();
    EXPECT_EQ(runtime.sessions().session_count(), 1u);
    ASSERT_TRUE(Finalize(std::nullopt).ok());
  }
  EXPECT_FALSE(runtime.is_process_wide());
  EXPECT_NE(&ProcessRuntime(), &runtime);
  EXPECT_TRUE(fs::exists(dir_ + "/routed.hatchet"));
}

TEST_F(RuntimeTest, ForkChildActionDropsEveryRuntimesSessions) {
  if (test::kUnderTsan) GTEST_SKIP() << "fork under ThreadSanitizer";
  Runtime runtime(WithFake());
  ASSERT_TRUE(runtime.sessions().Start(Named("parent"), /*cli_start=*/false).ok());
  ASSERT_EQ(runtime.sessions().session_count(), 1u);
  // The child: the runtime's sessions are gone (never written), and it remembers that its
  // parent had a backend running.
  int child = test::InChild([&] {
    bool ok = runtime.sessions().session_count() == 0 && !runtime.sessions().profiling_on() &&
              !runtime.sessions().backend_running() && runtime.ForkedFromProcessWithBackend();
    return ok ? 0 : 1;
  });
  EXPECT_EQ(child, 0);
  EXPECT_EQ(runtime.sessions().session_count(), 1u);  // the parent keeps its session
  EXPECT_FALSE(runtime.ForkedFromProcessWithBackend());
  ASSERT_TRUE(runtime.sessions().Finalize(std::nullopt, "").ok());
  EXPECT_TRUE(fs::exists(dir_ + "/parent.hatchet"));
}

TEST_F(RuntimeTest, EndingARuntimeStopsItsPhaseWriter) {
  Runtime runtime(WithFake());
  StartOptions o = Named("periodic");
  o.mode = "periodic_flushing";
  auto id = runtime.sessions().Start(o, /*cli_start=*/false);
  ASSERT_TRUE(id.ok()) << id.status().message();
  ASSERT_TRUE(runtime.sessions().AdvancePhase(**id).ok());  // wakes the writer thread
  runtime.phase_writer().WaitIdle();
  // The runtime ends here with its writer thread running: its destructor joins it.
}

}  // namespace
}  // namespace proton
