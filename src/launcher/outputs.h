// What the run produced, after the target ended (profiler.md §2.9): the rename rule (a root
// that wrote nothing plus exactly one rankless process that did -> its files take the root's
// names) and the final "proton: wrote <file>, …" line.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "launcher/run_dir.h"

namespace proton::launcher {

struct OutputPlan {
  std::vector<std::pair<std::string, std::string>> renames;  // from -> to
  std::vector<std::string> files;                            // final paths, display order
  bool only_base_file = true;  // every file is a root file named <base>.<suffix>
};

// Decides renames and the file list. `exists` tells whether a recorded file was really
// written (a process may have chosen a name and then failed or been killed).
OutputPlan PlanOutputs(const std::vector<FileRecord>& records, const std::string& base,
                       const std::function<bool(const std::string&)>& exists);

// `path` shown the way the user typed the base: "<typed base><rest>" when path starts with
// the absolute base, else the path itself.
std::string DisplayPath(const std::string& path, const std::string& absolute_base,
                        const std::string& typed_base);

// Up to kWroteLineListed files: "proton: wrote a, b\n". More (many ranks, forked workers,
// periodic-flushing part files) would make one line of thousands of characters, so they are
// summarised with the count, the folder and the first and last file:
// "proton: wrote 301 files in out/ (run.part_0.hatchet, ..., run.part_300.hatchet)\n".
inline constexpr size_t kWroteLineListed = 4;
std::string WroteLine(const std::vector<std::string>& display_paths);

}  // namespace proton::launcher
