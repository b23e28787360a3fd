// Output file names (profiler.md §1.2, §2.9): the default rule and the override the
// command-line lifecycle installs. See cli_mode.h.
#include <charconv>
#include <cstdlib>
#include <mutex>

#include "core/session/cli_mode.h"

namespace proton {
namespace {

std::mutex g_path_mutex;
OutputPathFn& PathFn() {
  static OutputPathFn* fn = new OutputPathFn();
  return *fn;
}

std::optional<long long> NonNegative(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  long long x = 0;
  std::string_view s(v);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || p != s.data() + s.size() || x < 0) return std::nullopt;
  return x;
}

}  // namespace

std::optional<int> DistributedRank() {
  static constexpr const char* kRanks[][2] = {{"RANK", "WORLD_SIZE"},
                                              {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                              {"SLURM_PROCID", "SLURM_NTASKS"},
                                              {"LOCAL_RANK", "LOCAL_WORLD_SIZE"}};
  for (const auto& pair : kRanks) {
    if (std::optional<long long> rank = NonNegative(pair[0])) {
      std::optional<long long> world = NonNegative(pair[1]);
      if (world && *world > 1) return static_cast<int>(*rank);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string DefaultOutputPath(std::string_view name, std::string_view suffix,
                              bool default_name) {
  std::string path(name);
  if (default_name) {
    if (std::optional<int> rank = DistributedRank()) path += ".rank" + std::to_string(*rank);
  }
  path += ".";
  path += suffix;
  return path;
}

void SetOutputPathFunction(OutputPathFn fn) {
  std::lock_guard<std::mutex> lock(g_path_mutex);
  PathFn() = std::move(fn);
}

std::string OutputPathFor(std::string_view name, std::string_view suffix, bool default_name) {
  OutputPathFn fn;
  {
    std::lock_guard<std::mutex> lock(g_path_mutex);
    fn = PathFn();
  }
  return fn ? fn(name, suffix, default_name) : DefaultOutputPath(name, suffix, default_name);
}

}  // namespace proton
