// What --follow watches (viewer.md §11.14): RUN is a profile's name as the profiler was given
// it (`out/train`), or a pattern over names (`'out/train.rank*'`: every rank). A listing of
// RUN's folder finds each matching name's part files, its end marker and the plain file of a
// run that never advanced. Temporary files (`.proton-*.tmp`, `.NAME.proton-XXXXXX`) never
// match, so a part being written is invisible until it is renamed into place.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "util/status.h"

namespace proton::viewer {

struct RunSpec {
  std::string text;     // RUN as typed, for messages
  std::string folder;   // "." when RUN names none
  std::string pattern;  // the name part: a literal name or an fnmatch(3) pattern
};

// Checks RUN's syntax: a non-empty name, no wildcard in the folder, brackets closed, and not
// a part or profile file's name. Usage errors name the option.
Result<RunSpec> ParseRunSpec(const std::string& run);

// One profile found for a matching name. `prefix` is the folder-joined name ("out/run.rank3"),
// which identifies one process (a rank) of the run.
struct ListedFile {
  std::string path;
  std::string prefix;
  int64_t phase = 0;  // 0 for a plain file
};

struct RunListing {
  std::vector<ListedFile> parts;  // tree-format part files (chrome_trace parts are skipped)
  std::vector<ListedFile> plain;  // `<prefix>.hatchet[_msgpack]` of a run that never advanced
  std::set<std::string> ended;    // prefixes with an end marker `<prefix>.done`
};

// Lists RUN's folder. Errors: the folder is missing, not a folder, or cannot be read
// ("cannot follow 'RUN': ...").
Result<RunListing> ListRun(const RunSpec& spec);

}  // namespace proton::viewer
