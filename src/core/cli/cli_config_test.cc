// Tests of reading the run description (profiler.md §2.13).
#include "core/cli/cli_config.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace proton::cli {
namespace {

std::map<std::string, std::string> g_env;
const char* FakeGetenv(const char* key) {
  auto it = g_env.find(key);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

TEST(CliConfig, ReadsTheProtocol) {
  g_env = {{"PROTON_CLI", "1"},
           {"PROTON_CLI_NAME", "/w/out"},
           {"PROTON_CLI_CONTEXT", "python"},
           {"PROTON_CLI_DATA", "trace"},
           {"PROTON_CLI_BACKEND", "cupti"},
           {"PROTON_CLI_MODE", "pcsampling"},
           {"PROTON_CLI_HOOK", "triton"},
           {"PROTON_CLI_ROOT_PID", "1234"},
           {"PROTON_CLI_RUN_ID", "r"},
           {"PROTON_CLI_RUN_DIR", "/tmp/d"},
           {"PROTON_CLI_TARGET", "script"},
           {"PROTON_CLI_FALLBACK_BASE", "/w/proton"}};
  CliConfig c = ReadCliConfig(FakeGetenv);
  EXPECT_TRUE(c.enabled);
  EXPECT_EQ(c.name, "/w/out");
  EXPECT_EQ(c.context, "python");
  EXPECT_EQ(c.data, "trace");
  EXPECT_EQ(c.backend, "cupti");
  EXPECT_EQ(c.mode, "pcsampling");
  EXPECT_EQ(c.hook, "triton");
  EXPECT_EQ(c.root_pid, 1234);
  EXPECT_EQ(c.run_id, "r");
  EXPECT_EQ(c.run_dir, "/tmp/d");
  EXPECT_EQ(c.target, "script");
  EXPECT_EQ(SessionName(c, true), "/w/out");
  EXPECT_EQ(SessionName(c, false), "/w/out");
  c.name.assign(1, '-');  // not = "-": g++ 12 -Wrestrict false positive at -O3
  EXPECT_EQ(SessionName(c, true), "-");
  EXPECT_EQ(SessionName(c, false), "/w/proton");
}

TEST(CliConfig, DefaultsAndBadValues) {
  g_env = {{"PROTON_CLI", "0"}, {"PROTON_CLI_ROOT_PID", "12x"}, {"PROTON_CLI_CONTEXT", ""}};
  CliConfig c = ReadCliConfig(FakeGetenv);
  EXPECT_FALSE(c.enabled);
  EXPECT_EQ(c.root_pid, -1);
  EXPECT_EQ(c.context, "shadow");
  EXPECT_EQ(c.data, "tree");
  EXPECT_EQ(c.name, "proton");
}

}  // namespace
}  // namespace proton::cli
