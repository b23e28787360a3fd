// Tests of sessions through the public API (profiler.md §1.2-§1.4, N12).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <vector>

#include "core/runtime/runtime.h"
#include "core/session/cli_mode.h"
#include "core/session/session_manager.h"
#include "core/testing/fake_backend.h"
#include "core/testing/json_reader.h"
#include "core/testing/test_util.h"
#include "proton/proton.h"

namespace proton {
namespace {

namespace fs = std::filesystem;

class SessionTest : public testing::Test {
 protected:
  void SetUp() override {
    test::ResetCore();
    dir_ = test::TempDir();
  }
  void TearDown() override {
    test::ResetCore();
    fs::remove_all(dir_);
  }
  StartOptions Named(const std::string& name) {
    StartOptions o;
    o.name = dir_ + "/" + name;
    return o;
  }
  int StartOk(const StartOptions& o) {
    auto r = Start(o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    EXPECT_TRUE(r->has_value());
    return r->value_or(-1);
  }
  std::string dir_;
};

TEST_F(SessionTest, IdsAreConsecutiveAndNeverReused) {
  EXPECT_EQ(StartOk(Named("a")), 0);
  EXPECT_EQ(StartOk(Named("b")), 1);
  ASSERT_TRUE(Finalize(1).ok());
  EXPECT_EQ(StartOk(Named("c")), 2);
  EXPECT_EQ(StartOk(Named("a")), 0);  // same name: same session, reactivated
  ASSERT_TRUE(Finalize(std::nullopt).ok());
  EXPECT_TRUE(fs::exists(dir_ + "/a.hatchet"));
  EXPECT_TRUE(fs::exists(dir_ + "/b.hatchet"));
  EXPECT_TRUE(fs::exists(dir_ + "/c.hatchet"));
  EXPECT_FALSE(ProfilingOn());
}

TEST_F(SessionTest, ValidationMessages) {
  StartOptions o = Named("x");
  o.backend = "rocm";
  EXPECT_EQ(Start(o).status().message(), "Unknown profiler: rocm");
  EXPECT_EQ(Start(o).status().kind(), ErrorKind::kRuntime);
  o = Named("x");
  o.context = "gpu";
  EXPECT_EQ(Start(o).status().message(), "Unknown context source: gpu");
  o = Named("x");
  o.data = "flat";
  EXPECT_EQ(Start(o).status().message(), "Unknown data: flat");
  o = Named("x");
  o.context = "PYTHON";
  o.data = "Trace";
  EXPECT_EQ(StartOk(o), 0);
  StartOptions m = Named("y");
  m.mode = "pcsampling";
  EXPECT_EQ(Start(m).status().message(),
            "Cannot add a session with the same profiler but a different mode than existing "
            "sessions");
  m.mode = "bogus";
  EXPECT_EQ(Start(m).status().kind(), ErrorKind::kRuntime);
  EXPECT_EQ(Activate(7).message(), "Session has not been initialized: 7");
  EXPECT_EQ(Deactivate(7).message(), "Session has not been initialized: 7");
  EXPECT_TRUE(Finalize(7).ok());  // unknown ids are ignored by finalize
}

TEST_F(SessionTest, OutputFormatErrorsLeaveNoFile) {
  int id = StartOk(Named("t"));
  EXPECT_EQ(Finalize(id, "json").message(), "Unknown output format: json");
  EXPECT_EQ(Finalize(id, "chrome_trace").message(), "Output format not supported");
  EXPECT_FALSE(fs::exists(dir_ + "/t.hatchet"));
  EXPECT_FALSE(fs::exists(dir_ + "/t.chrome_trace"));
  ASSERT_TRUE(Finalize(id, "HATCHET_MSGPACK").ok());
  EXPECT_TRUE(fs::exists(dir_ + "/t.hatchet_msgpack"));
  StartOptions tr = Named("tr");
  tr.data = "trace";
  id = StartOk(tr);
  EXPECT_EQ(Finalize(id, "hatchet").message(), "Output format not supported");
  ASSERT_TRUE(Finalize(id).ok());
  EXPECT_TRUE(fs::exists(dir_ + "/tr.chrome_trace"));
  // An empty trace is the empty document (formats.md §6), never a 0-byte file.
  EXPECT_EQ(test::ReadFile(dir_ + "/tr.chrome_trace"),
            "{\"baseTimeNanoseconds\":0,\"displayTimeUnit\":\"us\",\"traceEvents\":[]}\n");
}

TEST_F(SessionTest, SuffixRepeatedAndParentsCreated) {
  int id = StartOk(Named("sub/dir/out.hatchet"));
  ASSERT_TRUE(Finalize(id).ok());
  EXPECT_TRUE(fs::exists(dir_ + "/sub/dir/out.hatchet.hatchet"));
  for (const auto& e : fs::directory_iterator(dir_ + "/sub/dir")) {
    EXPECT_EQ(e.path().filename(), "out.hatchet.hatchet");  // no temporary left behind
  }
}

TEST_F(SessionTest, RewriteReplacesWholeFileAndLeavesNoTemporary) {
  {
    std::FILE* f = std::fopen((dir_ + "/r.hatchet").c_str(), "w");
    std::fputs(std::string(100000, 'x').c_str(), f);
    std::fclose(f);
  }
  int id = StartOk(Named("r"));
  ASSERT_TRUE(Finalize(id).ok());
  std::string text = test::ReadFile(dir_ + "/r.hatchet");
  EXPECT_EQ(text.find('x'), std::string::npos);
  EXPECT_EQ(text.substr(0, 2), "\n[");
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir_)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
}

TEST_F(SessionTest, UnwritablePathIsAnErrorNotACrash) {
  {
    std::FILE* f = std::fopen((dir_ + "/file").c_str(), "w");
    std::fclose(f);
  }
  int id = StartOk(Named("file/sub/out"));  // a parent is a regular file
  Status st = Finalize(id);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message().rfind("cannot write " + dir_ + "/file/sub/out.hatchet", 0), 0u)
      << st.message();
}

TEST_F(SessionTest, DefaultNameIsProton) {
  auto cwd = fs::current_path();
  fs::current_path(dir_);
  auto r = Start(StartOptions{});
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(Finalize(std::nullopt).ok());
  EXPECT_TRUE(fs::exists(dir_ + "/proton.hatchet"));
  fs::current_path(cwd);
}

TEST_F(SessionTest, DisabledByEnvironment) {
  ::setenv("TRITON_PROTON_DISABLE", "1", 1);
  auto r = Start(Named("d"));
  ::unsetenv("TRITON_PROTON_DISABLE");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->has_value());
  ASSERT_TRUE(Finalize(std::nullopt).ok());
  EXPECT_FALSE(fs::exists(dir_ + "/d.hatchet"));
}

TEST_F(SessionTest, StdoutForDashAndEmpty) {
  for (const char* name : {"-", ""}) {
    StartOptions o;
    o.name = name;
    int id = StartOk(o);
    uint64_t s = NewScopeId();
    EnterScope(s, "only");
    ASSERT_TRUE(ExitScope(s, "only").ok());
    testing::internal::CaptureStdout();
    ASSERT_TRUE(Finalize(id).ok());
    std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(out.substr(0, 2), "\n[");
    EXPECT_NE(out.find("\"name\": \"only\""), std::string::npos);
  }
}

TEST_F(SessionTest, ScopesOnlyWithoutDriverWritesScopeTree) {
  int id = StartOk(Named("s"));
  EXPECT_FALSE(ProcessRuntime().sessions().backend_running());  // no cupti registered here
  uint64_t a = NewScopeId();
  EnterScope(a, "a");
  ASSERT_TRUE(AddMetrics(a, {{"foo", 1.0}}).ok());
  ASSERT_TRUE(ExitScope(a, "a").ok());
  auto json = GetJson(id);
  ASSERT_TRUE(json.ok());
  test::Json doc = test::ParseOrDie(*json);
  EXPECT_EQ(doc.array[0]["children"].array[0]["metrics"]["foo"].d, 1.0);
  EXPECT_EQ(doc.array[0]["metrics"]["foo"].i, 0);
  auto mp = GetMsgpack(id);
  ASSERT_TRUE(mp.ok());
  EXPECT_EQ(static_cast<unsigned char>((*mp)[0]), 0x92);
  EXPECT_EQ(GetJson(id, 1).status().message(), "[PROTON] Phase 1 has no data.");
  ASSERT_TRUE(Clear(id).ok());
  auto after = GetJson(id);
  ASSERT_TRUE(after.ok());
  test::Json cleared = test::ParseOrDie(*after);
  EXPECT_TRUE(cleared.array[0]["children"].array.empty());
  ASSERT_TRUE(Finalize(id).ok());
}

TEST_F(SessionTest, TraceDataGetRaises) {
  StartOptions o = Named("tr");
  o.data = "trace";
  int id = StartOk(o);
  EXPECT_EQ(GetJson(id).status().message(), "Only TreeData is supported for getData() for now");
  ASSERT_TRUE(Finalize(id).ok());
}

TEST_F(SessionTest, ContextDepth) {
  EXPECT_FALSE(ContextDepth(0).has_value());
  int id = StartOk(Named("d"));
  EXPECT_EQ(ContextDepth(id), 0);
  uint64_t a = NewScopeId(), b = NewScopeId();
  EnterScope(a, "a");
  EnterScope(b, "b");
  EXPECT_EQ(ContextDepth(id), 2);
  ASSERT_TRUE(ExitScope(b, "b").ok());
  ASSERT_TRUE(ExitScope(a, "a").ok());
  ASSERT_TRUE(Finalize(std::nullopt).ok());
  EXPECT_FALSE(ContextDepth(id).has_value());
}

TEST_F(SessionTest, CommandLineModeTable) {
  SetCommandLineMode(true);
  auto ignored = Start(Named("ignored"));
  ASSERT_TRUE(ignored.ok());
  EXPECT_FALSE(ignored->has_value());
  auto cli = StartCliSession(Named("cli"));
  ASSERT_TRUE(cli.ok());
  EXPECT_EQ(**cli, 0);
  EXPECT_TRUE(Activate(std::nullopt).ok());    // D1
  EXPECT_TRUE(Deactivate(std::nullopt).ok());  // D1
  EXPECT_TRUE(Activate(0).ok());
  EXPECT_EQ(Activate(1).message(),
            "Only one session can be activated when running from the command line.");
  EXPECT_EQ(Activate(1).kind(), ErrorKind::kValue);
  EXPECT_EQ(Deactivate(1).message(),
            "Only one session can be deactivated when running from the command line.");
  EXPECT_EQ(Finalize(2).message(),
            "Only one session can be finalized when running from the command line.");
  EXPECT_EQ(GetJson(1).status().message(),
            "Only one session can be retrieved when running from the command line.");
  EXPECT_EQ(Clear(1).message(),
            "Only one session can be cleared when running from the command line.");
  EXPECT_FALSE(HasRecordedAnything() && false);
  uint64_t s = NewScopeId();
  EnterScope(s, "x");
  ASSERT_TRUE(ExitScope(s, "x").ok());
  EXPECT_TRUE(HasRecordedAnything());
  ASSERT_TRUE(Finalize(0).ok());
  EXPECT_TRUE(fs::exists(dir_ + "/cli.hatchet"));
}

TEST_F(SessionTest, BackendStartFailureRaisesInApiMode) {
  // §5.2: start() raises RuntimeError with the backend's own message; nothing is started.
  FakeBackend::Register();
  const std::string message = "CUPTI is already in use by another profiler in this process";
  FakeBackend::FailNextStart(message);
  StartOptions o = Named("refused");
  o.backend = "fake";
  testing::internal::CaptureStderr();
  auto r = Start(o);
  std::string err = testing::internal::GetCapturedStderr();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), message);
  EXPECT_EQ(r.status().kind(), ErrorKind::kRuntime);
  EXPECT_EQ(err, "");
  EXPECT_FALSE(ProfilingOn());
  EXPECT_EQ(StartOk(Named("after")), 0);  // the refused start took no session id
  EXPECT_FALSE(ProcessRuntime().sessions().backend_running());  // default backend: no driver here
}

TEST_F(SessionTest, SignalPathFinalizeDoesNotSynchronizeTheDevice) {
  // §2.10: the signal writer's flush must not wait for a kernel that may hang; finalize from
  // the program does synchronize.
  FakeBackend::Register();
  StartOptions o = Named("sig");
  o.backend = "fake";
  StartOk(o);
  ASSERT_TRUE(FinalizeAllWithoutSynchronizing().ok());
  EXPECT_FALSE(FakeBackend::LastFlushSynchronized());
  EXPECT_TRUE(fs::exists(dir_ + "/sig.hatchet"));
  o.name = dir_ + "/sync2";
  StartOk(o);
  ASSERT_TRUE(Finalize(std::nullopt).ok());
  EXPECT_TRUE(FakeBackend::LastFlushSynchronized());
}

TEST_F(SessionTest, BackendStartFailureInCliModeRunsUnprofiled) {
  // §5.2: the backend printed its step-aside line; the core prints nothing more, starts no
  // session (so nothing records and no file is written), and does not try again.
  FakeBackend::Register();
  SetCommandLineMode(true);
  FakeBackend::FailNextStart("refused");
  StartOptions o = Named("cli");
  o.backend = "fake";
  testing::internal::CaptureStderr();
  auto r = StartCliSession(o);
  uint64_t s = NewScopeId();
  EnterScope(s, "x");
  (void)ExitScope(s, "x");
  auto again = StartCliSession(o);  // would succeed now: it must not retry
  std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->has_value());
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->has_value());
  EXPECT_EQ(err, "");
  EXPECT_FALSE(ProfilingOn());
  EXPECT_FALSE(HasRecordedAnything());
  EXPECT_TRUE(Finalize(std::nullopt).ok());
  EXPECT_FALSE(fs::exists(dir_ + "/cli.hatchet"));
}

std::string* g_lazy_name = nullptr;  // the session name the lazy start below uses

StartOptions LazyOptions() {
  StartOptions o;
  o.name = *g_lazy_name;
  o.backend = "fake";
  return o;
}

// A runtime as the CLI's entry point makes it: command-line mode and the lazy start.
RuntimeOptions LazyCliRuntime(bool command_line_mode = true) {
  RuntimeOptions options;
  options.command_line_mode = command_line_mode;
  options.lazy_cli_start = [] { (void)StartCliSession(LazyOptions(), /*scopes_only=*/true); };
  options.backends.push_back(FakeBackend::Registration());
  return options;
}

// §2.9: in CLI mode a scope before session 0 exists starts it (scopes only, no cuInit); the
// injection's start then joins the session and attaches the backend.
TEST_F(SessionTest, CliLazyStartFromAScopeThenInjectionAttachesTheBackend) {
  std::string name = dir_ + "/lazy";
  g_lazy_name = &name;
  Runtime runtime(LazyCliRuntime());
  ScopedProcessRuntime use(runtime);
  uint64_t s = NewScopeId();
  EnterScope(s, "early");
  EXPECT_TRUE(ProfilingOn());
  EXPECT_FALSE(ProcessRuntime().sessions().backend_running());  // the backend waits for CUDA
  ASSERT_TRUE(ExitScope(s, "early").ok());
  auto joined = StartCliSession(LazyOptions());  // what the injection does at cuInit
  ASSERT_TRUE(joined.ok());
  EXPECT_EQ(joined->value_or(-1), 0);
  EXPECT_TRUE(ProcessRuntime().sessions().backend_running());
  test::Json doc = test::SessionJson(0);
  EXPECT_NE(test::NodeAt(doc, {"early"}), nullptr);
  EXPECT_TRUE(HasRecordedAnything());
  ASSERT_TRUE(Finalize(std::nullopt).ok());
  EXPECT_TRUE(fs::exists(name + ".hatchet"));
}

TEST_F(SessionTest, CliLazyStartFromStateMetricsAndOps) {
  std::string name = dir_ + "/lazy";
  g_lazy_name = &name;
  const std::vector<std::function<void()>> first_calls = {
      [] {
        EnterState("s");
        ExitState();
      },
      [] {
        (void)AddMetrics(NewScopeId(), {{"m", MetricValue{int64_t{1}}}});
      },
      [] {
        uint64_t op = NewScopeId();
        EnterOp(op, "op");
        ExitOp(op);
      },
  };
  for (const auto& call : first_calls) {
    Runtime runtime(LazyCliRuntime());
    ScopedProcessRuntime use(runtime);
    EXPECT_FALSE(ProfilingOn());
    call();
    EXPECT_TRUE(ProfilingOn());
    call();  // once started, no second start
    EXPECT_TRUE(ProfilingOn());
  }
  // Outside CLI mode nothing starts.
  Runtime runtime(LazyCliRuntime(/*command_line_mode=*/false));
  ScopedProcessRuntime use(runtime);
  EnterScope(NewScopeId(), "x");
  EXPECT_FALSE(ProfilingOn());
}

TEST_F(SessionTest, DiscardAfterForkForgetsTheRecordedFlag) {
  // A forked child inherits the parent's flag with its sessions; both must go, or a child
  // that records nothing would still write a file (§2.9).
  int id = StartOk(Named("parent"));
  uint64_t s = NewScopeId();
  EnterScope(s, "x");
  ASSERT_TRUE(ExitScope(s, "x").ok());
  ASSERT_TRUE(HasRecordedAnything());
  ProcessRuntime().sessions().DiscardAll();  // what a forked child's runtime does
  EXPECT_FALSE(HasRecordedAnything());
  EXPECT_FALSE(ProfilingOn());
  (void)id;
}

TEST_F(SessionTest, OutputPathOverride) {
  RuntimeOptions options;
  options.output_path = [](std::string_view name, std::string_view suffix, bool) {
    return std::string(name) + ".pid42." + std::string(suffix);
  };
  Runtime runtime(std::move(options));
  ScopedProcessRuntime use(runtime);
  int id = StartOk(Named("o"));
  ASSERT_TRUE(Finalize(id).ok());
  EXPECT_TRUE(fs::exists(dir_ + "/o.pid42.hatchet"));
}

TEST_F(SessionTest, DefaultNameGetsRankSuffix) {
  ::setenv("RANK", "3", 1);
  ::setenv("WORLD_SIZE", "4", 1);
  EXPECT_EQ(DefaultOutputPath("proton", "hatchet", true), "proton.rank3.hatchet");
  EXPECT_EQ(DefaultOutputPath("mine", "hatchet", false), "mine.hatchet");
  ::setenv("WORLD_SIZE", "1", 1);
  EXPECT_EQ(DefaultOutputPath("proton", "hatchet", true), "proton.hatchet");
  ::unsetenv("RANK");
  ::unsetenv("WORLD_SIZE");
}

}  // namespace
}  // namespace proton
