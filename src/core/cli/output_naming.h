// Per-process file names in a `proton` run (profiler.md §2.9): <base>.<suffix> for the root,
// <base>.rank<R>.<suffix> for ranked processes (claimed once per run by exclusive creation in
// the run directory; a second claimant appends .pid<P>), <base>.pid<P>.<suffix> otherwise.
// Every chosen file is appended to the run directory's record for the launcher.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/config/rank.h"

namespace proton::cli {

struct NameChoice {
  std::string path;
  std::string_view kind;  // cli_protocol::kFileKind*
};

// Pure naming rule. `name` is the session name (may end in ".part_<N>": the rank or pid is
// inserted before the part), `rank` the naming rank, `rank_claimed` whether this process owns
// that rank's name in this run.
NameChoice ComposeOutputPath(std::string_view name, std::string_view suffix, bool root,
                             std::optional<long> rank, bool rank_claimed, long pid);

// Claims "rank<R>" in `run_dir` by exclusive creation of "claim.rank<R>" holding the pid.
// True when this pid owns it (now or from an earlier call). No run directory: always true.
bool ClaimRankName(const std::string& run_dir, long rank, long pid);

// Appends "<kind>\t<pid>\t<path>\n" to "<run_dir>/files" with one write().
void RecordOutputFile(const std::string& run_dir, std::string_view kind, long pid,
                      const std::string& path);

// The output path function installed into the core in CLI mode (core/session/cli_mode.h).
std::string CliOutputPath(std::string_view name, std::string_view suffix, bool default_name);

}  // namespace proton::cli
