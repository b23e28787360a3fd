// Output file names (profiler.md §1.2, §2.9): the default rule and the override the
// command-line lifecycle installs. See cli_mode.h.
#include <mutex>

#include "core/config/rank.h"
#include "core/fork_guard.h"
#include "core/session/cli_mode.h"

namespace proton {
namespace {

ForkGuardedMutex g_path_mutex{LockRank::kLeaf};
OutputPathFn& PathFn() {
  static OutputPathFn* fn = new OutputPathFn();
  return *fn;
}

}  // namespace

std::string DefaultOutputPath(std::string_view name, std::string_view suffix, bool default_name) {
  std::string path(name);
  if (default_name) {
    if (std::optional<long> rank = NamingRank(ReadProcessRankInfo(), /*root=*/true))
      path += ".rank" + std::to_string(*rank);
  }
  path += ".";
  path += suffix;
  return path;
}

void SetOutputPathFunction(OutputPathFn fn) {
  std::lock_guard<ForkGuardedMutex> lock(g_path_mutex);
  PathFn() = std::move(fn);
}

std::string OutputPathFor(std::string_view name, std::string_view suffix, bool default_name) {
  OutputPathFn fn;
  {
    std::lock_guard<ForkGuardedMutex> lock(g_path_mutex);
    fn = PathFn();
  }
  return fn ? fn(name, suffix, default_name) : DefaultOutputPath(name, suffix, default_name);
}

}  // namespace proton
