// Tests of the rank rule (profiler.md §2.9: variables, their order, world size).
#include "core/config/rank.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace proton {
namespace {

std::map<std::string, std::string> g_env;
const char* FakeGetenv(const char* key) {
  auto it = g_env.find(key);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

TEST(Rank, Variables) {
  g_env = {};
  EXPECT_FALSE(ReadRankInfo(FakeGetenv).rank.has_value());
  g_env = {{"RANK", "3"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "1"}};
  RankInfo info = ReadRankInfo(FakeGetenv);
  EXPECT_EQ(info.rank, 3);
  EXPECT_EQ(info.world, 4);
  // Global ranks come before LOCAL_RANK; invalid values are skipped.
  g_env = {{"RANK", "x"},
           {"OMPI_COMM_WORLD_RANK", "2"},
           {"OMPI_COMM_WORLD_SIZE", "8"},
           {"LOCAL_RANK", "0"}};
  info = ReadRankInfo(FakeGetenv);
  EXPECT_EQ(info.rank, 2);
  EXPECT_EQ(info.world, 8);
  g_env = {{"RANK", "-1"}, {"SLURM_PROCID", "5"}};
  info = ReadRankInfo(FakeGetenv);
  EXPECT_EQ(info.rank, 5);
  EXPECT_FALSE(info.world.has_value());
  g_env = {{"LOCAL_RANK", "1"}, {"LOCAL_WORLD_SIZE", "2"}};
  EXPECT_EQ(ReadRankInfo(FakeGetenv).rank, 1);
}

TEST(Rank, OrderIsRankOmpiSlurmLocal) {
  g_env = {{"LOCAL_RANK", "4"}, {"SLURM_PROCID", "3"}, {"OMPI_COMM_WORLD_RANK", "2"}};
  EXPECT_EQ(ReadRankInfo(FakeGetenv).rank, 2);
  g_env = {{"LOCAL_RANK", "4"}, {"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "6"}};
  RankInfo info = ReadRankInfo(FakeGetenv);
  EXPECT_EQ(info.rank, 3);
  EXPECT_EQ(info.world, 6);
  // The world size is the one matching the rank variable used, not any other.
  g_env = {{"LOCAL_RANK", "4"}, {"WORLD_SIZE", "8"}};
  info = ReadRankInfo(FakeGetenv);
  EXPECT_EQ(info.rank, 4);
  EXPECT_FALSE(info.world.has_value());
}

TEST(Rank, OnlyPlainNonNegativeIntegers) {
  for (const char* bad : {"", "+1", " 1", "1 ", "1x", "-0x1", "99999999999999999999999"}) {
    g_env = {{"RANK", bad}};
    EXPECT_FALSE(ReadRankInfo(FakeGetenv).rank.has_value()) << "'" << bad << "'";
  }
  g_env = {{"RANK", "0"}, {"WORLD_SIZE", "x"}};
  RankInfo info = ReadRankInfo(FakeGetenv);
  EXPECT_EQ(info.rank, 0);
  EXPECT_FALSE(info.world.has_value());
}

TEST(Rank, NamingRank) {
  EXPECT_FALSE(NamingRank({}, false).has_value());
  EXPECT_EQ(NamingRank({1, std::nullopt}, false), 1);  // any rank for non-root processes
  EXPECT_FALSE(NamingRank({1, std::nullopt}, true).has_value());
  EXPECT_FALSE(NamingRank({0, 1}, true).has_value());  // root: only when world size > 1
  EXPECT_EQ(NamingRank({0, 2}, true), 0);
}

}  // namespace
}  // namespace proton
