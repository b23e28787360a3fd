// Tests of the knob table (profiler.md §1.11).
#include "core/config/config.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

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
