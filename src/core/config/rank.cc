// See rank.h.
#include "core/config/rank.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace proton {
namespace {

std::optional<long> NonNegative(const char* text) {
  if (text == nullptr || *text == '\0') return std::nullopt;
  std::string_view s(text);
  long value = 0;
  // from_chars takes no sign, space or trailing text, and rejects values that overflow.
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || value < 0) return std::nullopt;
  return value;
}

const char* ProcessGetenv(const char* key) { return std::getenv(key); }

}  // namespace

RankInfo ReadRankInfo(EnvLookup get) {
  static constexpr const char* kPairs[][2] = {{"RANK", "WORLD_SIZE"},
                                              {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                              {"SLURM_PROCID", "SLURM_NTASKS"},
                                              {"LOCAL_RANK", "LOCAL_WORLD_SIZE"}};
  RankInfo info;
  for (const auto& pair : kPairs) {
    if (std::optional<long> rank = NonNegative(get(pair[0]))) {
      info.rank = rank;
      info.world = NonNegative(get(pair[1]));
      break;
    }
  }
  return info;
}

RankInfo ReadProcessRankInfo() { return ReadRankInfo(ProcessGetenv); }

std::optional<long> NamingRank(const RankInfo& info, bool root) {
  if (!info.rank) return std::nullopt;
  if (root && !(info.world && *info.world > 1)) return std::nullopt;
  return info.rank;
}

}  // namespace proton
