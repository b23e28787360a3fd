// Tests of the knob table (profiler.md §1.11).
#include "core/config/config.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

namespace proton {
namespace {

std::map<std::string, std::string>* g_env;
const char* FakeEnv(const char* name) {
  auto it = g_env->find(name);
  return it == g_env->end() ? nullptr : it->second.c_str();
}

TEST(Config, DefaultsWhenUnset) {
  std::map<std::string, std::string> env;
  g_env = &env;
  Config c = ReadConfig(FakeEnv);
  EXPECT_FALSE(c.disable);
  EXPECT_EQ(c.profile_buffer_size, 67108864u);
  EXPECT_TRUE(c.enable_nvtx);
  EXPECT_FALSE(c.alias_triton_profiler.has_value());
}

// The value each knob's field holds, in the table's text form, so that the documented default
// can be compared with what ReadConfig gives.
std::map<std::string_view, std::string> ConfigAsText(const Config& c) {
  auto b = [](bool v) { return std::string(v ? "true" : "false"); };
  return {
      {"PROTON_DISABLE", b(c.disable)},
      {"PROTON_PROFILE_BUFFER_SIZE", std::to_string(c.profile_buffer_size)},
      {"PROTON_PROFILE_METRIC_BUFFER_SIZE", std::to_string(c.profile_metric_buffer_size)},
      {"PROTON_ENABLE_NVTX", b(c.enable_nvtx)},
      {"PROTON_CUPTI_LIBRARY", c.cupti_library},
      {"PROTON_CUPTI_LIB_PATH", c.cupti_lib_path},
      {"PROTON_CUPTI_LIB_BLACKWELL_PATH", c.cupti_lib_blackwell_path},
      {"PROTON_ENABLE_HW_TRACE", b(c.enable_hw_trace)},
      {"PROTON_DATA_FLUSH_TIMING", b(c.data_flush_timing)},
      {"PROTON_PYTHON", c.python},
      {"PROTON_ALIAS_TRITON_PROFILER",
       c.alias_triton_profiler ? b(*c.alias_triton_profiler) : std::string()},
      {"PROTON_VERBOSE", b(c.verbose)},
      {"PROTON_DEBUG_CALLBACKS", b(c.debug_callbacks)},
      {"PROTON_RECORD", c.record},
  };
}

TEST(Config, DefaultsComeFromTheTable) {
  std::map<std::string, std::string> env;
  g_env = &env;
  const std::map<std::string_view, std::string> values = ConfigAsText(ReadConfig(FakeEnv));
  EXPECT_EQ(values.size(), KnobTable().size()) << "a knob is missing from ConfigAsText";
  for (const Knob& k : KnobTable()) {
    auto it = values.find(k.name);
    ASSERT_NE(it, values.end()) << k.name;
    EXPECT_EQ(it->second, k.default_value) << k.name;
  }
  EXPECT_EQ(ConfigAsText(DefaultConfig()), values);
}

TEST(Config, EmptyAliasVariableIsSetNotDefault) {
  std::map<std::string, std::string> env{{"PROTON_ALIAS_TRITON_PROFILER", ""}};
  g_env = &env;
  EXPECT_EQ(ReadConfig(FakeEnv).alias_triton_profiler, std::optional<bool>(false));
}

TEST(Config, UnparsableNumberTakesTheDefault) {
  std::map<std::string, std::string> env{{"PROTON_PROFILE_BUFFER_SIZE", "64M"},
                                         {"PROTON_PROFILE_METRIC_BUFFER_SIZE", "4096"}};
  g_env = &env;
  Config c = ReadConfig(FakeEnv);
  EXPECT_EQ(c.profile_buffer_size, 67108864u);
  EXPECT_EQ(c.profile_metric_buffer_size, 4096u);
}

TEST(Config, AliasesAcceptedAndOursWins) {
  std::map<std::string, std::string> env{{"TRITON_PROFILE_BUFFER_SIZE", "1024"},
                                         {"TRITON_PROTON_DISABLE", "On"},
                                         {"TRITON_ENABLE_NVTX", "0"},
                                         {"TRITON_CUPTI_LIB_PATH", "/t"},
                                         {"PROTON_CUPTI_LIB_PATH", "/p"}};
  g_env = &env;
  Config c = ReadConfig(FakeEnv);
  EXPECT_EQ(c.profile_buffer_size, 1024u);
  EXPECT_TRUE(c.disable);
  EXPECT_FALSE(c.enable_nvtx);
  EXPECT_EQ(c.cupti_lib_path, "/p");
}

TEST(Config, BooleansFollowTriton) {
  EXPECT_TRUE(ParseBool("1"));
  EXPECT_TRUE(ParseBool("TRUE"));
  EXPECT_TRUE(ParseBool("on"));
  EXPECT_FALSE(ParseBool("yes"));
  EXPECT_FALSE(ParseBool("0"));
  EXPECT_FALSE(ParseBool(""));
}

TEST(Config, TableHasEveryKnobOnceWithDocs) {
  std::set<std::string_view> names;
  for (const Knob& k : KnobTable()) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_FALSE(k.doc.empty());
  }
  EXPECT_TRUE(names.count("PROTON_RECORD"));
  EXPECT_TRUE(names.count("PROTON_ENABLE_HW_TRACE"));
}

}  // namespace
}  // namespace proton
