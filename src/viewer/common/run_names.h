// The names of the files one profiled run writes (formats.md §1, §5; profiler.md §2.9): part
// files `<prefix>.part_<phase>.<format>`, the end marker `<prefix>.done`, ranks in a prefix
// (`run.rank3`), and short labels for a set of prefixes. Shared by --follow (viewer/live) and
// --stragglers (viewer/merge), which both tell ranks and phases apart by file name only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace proton::viewer {

struct PartFileName {
  std::string prefix;  // everything before ".part_", the folder included: "out/run.rank3"
  int64_t phase = 0;
  std::string format;  // "hatchet", "hatchet_msgpack" or "chrome_trace"
};

// The profile formats a part may have, and whether `format` is a call tree's.
bool IsProfileFormat(std::string_view format);
bool IsTreeFormat(std::string_view format);

// `path` split as a part file's name; nullopt when its file name is not
// `<prefix>.part_<digits>.<format>` with a non-empty prefix, at most 18 digits and one of the
// three formats.
std::optional<PartFileName> ParsePartFileName(std::string_view path);

// The suffix of a run's end marker (formats.md §5): "<prefix>.done".
inline constexpr std::string_view kEndMarkerSuffix = ".done";

// Names in the order a person reads them: runs of digits compare by value ("rank2" before
// "rank10"); equal up to leading zeros falls back to the bytes.
bool NaturalLess(std::string_view a, std::string_view b);

// One label per prefix for tables: the prefixes without the text all of them share up to
// a '.' or '/' ("out/run.rank0", "out/run.rank1" -> "rank0", "rank1"). A single prefix, or
// one that would be left empty, is labelled by its file name.
std::vector<std::string> ShortLabels(const std::vector<std::string>& prefixes);

}  // namespace proton::viewer
