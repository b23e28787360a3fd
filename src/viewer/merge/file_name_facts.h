// The rank, phase and process that a profile's file name carries (profiler.md §2.9, formats.md
// §5: NAME.rank<R>.hatchet, NAME.part_<P>.hatchet, NAME.pid<P>.hatchet), for the rows of many
// files: --merge's --export table and the SQLite database (viewer.md §11.11, §11.13).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace proton::viewer {

struct FileNameFacts {
  std::optional<int64_t> rank;
  std::optional<int64_t> phase;
  std::optional<int64_t> pid;
};

// From the last `.rank<R>`, `.part_<P>` and `.pid<P>` of the file's base name, each followed
// by a `.` or the end ("run.rank3.part_2.hatchet": rank 3, phase 2).
FileNameFacts ParseFileName(std::string_view display_name);

}  // namespace proton::viewer
