// The default output file names (profiler.md §1.2). A runtime made with
// RuntimeOptions::output_path names its files with that instead (Runtime::OutputPathFor).
#include "core/config/rank.h"
#include "core/session/cli_mode.h"

namespace proton {

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

}  // namespace proton
