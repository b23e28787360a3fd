// The process's distributed rank (profiler.md §1.2, §2.9): one rule for the API-mode default
// name and the command-line file names, so both agree on which variables count.
#pragma once

#include <optional>

namespace proton {

struct RankInfo {
  std::optional<long> rank;
  std::optional<long> world;  // world size matching the rank variable that was used
};

// RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID, LOCAL_RANK: the first one set to a non-negative
// integer, with its matching world size variable (WORLD_SIZE, OMPI_COMM_WORLD_SIZE,
// SLURM_NTASKS, LOCAL_WORLD_SIZE). Global ranks come first because LOCAL_RANK repeats on
// every node. `get` looks a variable up (nullptr when unset), so tests need no real env.
using EnvLookup = const char* (*)(const char*);
RankInfo ReadRankInfo(EnvLookup get);
// The same, from this process's environment, read now (§2.9: at write time, not start-up).
RankInfo ReadProcessRankInfo();

// The rank that goes into a file name: any rank for non-root processes, and for the root (and
// API mode's default name) only when the world size is above 1.
std::optional<long> NamingRank(const RankInfo& info, bool root);

}  // namespace proton
