// Tests of the environment given to the target (profiler.md §2.9, §2.11, §2.13).
#include "launcher/environment.h"

#include <gtest/gtest.h>

#include "protocol/cli_protocol.h"
#include "util/bool_knob.h"

namespace proton::launcher {
namespace {

TEST(Environment, GetSetAndTruthy) {
  EnvList env = {"A=1", "AB=2", "EMPTY="};
  EXPECT_EQ(GetEnv(env, "A"), "1");
  EXPECT_EQ(GetEnv(env, "AB"), "2");
  EXPECT_EQ(GetEnv(env, "EMPTY"), "");
  EXPECT_FALSE(GetEnv(env, "B").has_value());
  SetEnv(env, "A", "3");
  SetEnv(env, "C", "4");
  EXPECT_EQ(env, (EnvList{"A=3", "AB=2", "EMPTY=", "C=4"}));
  for (const char* yes : {"1", "true", "TRUE", "On"}) EXPECT_TRUE(ParseBool(yes)) << yes;
  for (const char* no : {"0", "", "yes", "false"}) EXPECT_FALSE(ParseBool(no)) << no;
}

TEST(Environment, Decision) {
  const std::optional<std::string> lib = "/nonexistent/libproton.so";
  EXPECT_EQ(DecideProfiling({}, lib), ProfilingDecision::kProfile);
  EXPECT_EQ(DecideProfiling({"PROTON_DISABLE=1"}, lib), ProfilingDecision::kDisabled);
  EXPECT_EQ(DecideProfiling({"TRITON_PROTON_DISABLE=true"}, lib), ProfilingDecision::kDisabled);
  // Ours wins over Triton's name.
  EXPECT_EQ(DecideProfiling({"PROTON_DISABLE=0", "TRITON_PROTON_DISABLE=1"}, lib),
            ProfilingDecision::kProfile);
  EXPECT_EQ(DecideProfiling({"CUDA_INJECTION64_PATH=/bin/true"}, lib),
            ProfilingDecision::kOtherTool);
  EXPECT_EQ(DecideProfiling({"CUDA_INJECTION64_PATH=/bin/true"}, std::string("/usr/bin/true")),
            RealPath("/bin/true") == RealPath("/usr/bin/true") ? ProfilingDecision::kProfile
                                                               : ProfilingDecision::kOtherTool);
  EXPECT_EQ(DecideProfiling({"CUDA_INJECTION64_PATH="}, lib), ProfilingDecision::kProfile);
}

TEST(Environment, ResolveBase) {
  EXPECT_EQ(ResolveBase(std::nullopt, "/w"), "/w/proton");
  EXPECT_EQ(ResolveBase(std::string("out/x"), "/w"), "/w/out/x");
  EXPECT_EQ(ResolveBase(std::string("/abs/x"), "/w"), "/abs/x");
  EXPECT_EQ(ResolveBase(std::string("-"), "/w"), "-");
  EXPECT_EQ(ResolveBase(std::string(""), "/w"), "-");
  EXPECT_EQ(ResolveBase(std::string("x"), "/"), "/x");
}

TEST(Environment, Build) {
  RunSetup setup;
  setup.options.name = "out/x";
  setup.options.context = "python";
  setup.options.hook = "triton";
  setup.cwd = "/w";
  setup.layout.core_library = "/lib/libproton.so";
  setup.layout.bootstrap_dir = "/py/proton_bootstrap";
  setup.layout.package_parent = "/py";
  setup.run_id = "1.abc";
  setup.run_dir = "/tmp/proton-run.1.abc";
  setup.kind = TargetKind::kScript;
  EnvList env = BuildEnvironment({"PATH=/bin", "PYTHONPATH=/user"}, setup);
  EXPECT_EQ(GetEnv(env, "PATH"), "/bin");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI"), "1");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_NAME"), "/w/out/x");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_FALLBACK_BASE"), "/w/proton");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_CONTEXT"), "python");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_DATA"), "tree");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_BACKEND"), "");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_MODE"), "");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_HOOK"), "triton");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_RUN_ID"), "1.abc");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_RUN_DIR"), "/tmp/proton-run.1.abc");
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_TARGET"), "script");
  EXPECT_EQ(GetEnv(env, "CUDA_INJECTION64_PATH"), "/lib/libproton.so");
  EXPECT_EQ(GetEnv(env, "PYTHONPATH"), "/py/proton_bootstrap:/py:/user");
  EXPECT_FALSE(GetEnv(env, "NVTX_INJECTION64_PATH").has_value());

  setup.options.name = "-";
  env = BuildEnvironment({}, setup);
  EXPECT_EQ(GetEnv(env, "PROTON_CLI_NAME"), "-");
  EXPECT_EQ(GetEnv(env, "PYTHONPATH"), "/py/proton_bootstrap:/py");
}

// The launcher never sets LD_PRELOAD: what the caller preloads (the ASan runtime, which must
// come first in an uninstrumented target's library list) reaches the target unchanged.
TEST(Environment, PreloadPassesThrough) {
  RunSetup setup;
  setup.layout.core_library = "/lib/libproton.so";
  const EnvList base = {"LD_PRELOAD=/rt/libasan.so:/rt/libubsan.so", "ASAN_OPTIONS=a=1"};
  EnvList env = BuildEnvironment(base, setup);
  EXPECT_EQ(env[0], base[0]);
  EXPECT_EQ(env[1], base[1]);
  EXPECT_FALSE(GetEnv(BuildEnvironment({}, setup), "LD_PRELOAD").has_value());
}

}  // namespace
}  // namespace proton::launcher
