// Whether the run's profiles can be written where -n puts them, checked before the target
// starts (profiler.md §2.9): otherwise a run of hours ends in a warning and no profile, or in
// files the launcher cannot account for.
#pragma once

#include <optional>
#include <string>

namespace proton::launcher {

// The error for the folder of `absolute_base` (an absolute path, ResolveBase's result other
// than "-"), or nullopt when profiles can be written there. A folder that does not exist yet
// is fine (the core creates it, D4) when its nearest existing ancestor is a writable
// directory. Refused: a file in the way (Not a directory), a read-only file system or no
// write permission, and a file system with no space left. A newline anywhere in the path is
// refused too: the run directory's records of who wrote which file are one line each.
std::optional<std::string> OutputPathError(const std::string& absolute_base);

}  // namespace proton::launcher
