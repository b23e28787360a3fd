// proton-viewer as a function (viewer.md §8): parse, read, derive, filter, diff, print.
// tools/proton_viewer_main.cc only forwards argv; tests call ViewerMain directly.
#pragma once

#include <string>
#include <vector>

#include "util/status.h"

namespace proton::viewer {

// The exit status of a run whose --fail-above gate failed (§9.3); 1 and 2 are errors.
inline constexpr int kGateFailedStatus = 3;
// The exit status, without any message, of a run whose standard output was closed early
// (§7.9): the reference's, whose Python ends with BrokenPipeError and status 1.
inline constexpr int kClosedOutputStatus = 1;

// Runs the viewer for `args` (argv without the program name), writing to `out_fd`; `color`
// is whether that is a terminal. Returns the exit status on success (0, or 3 when the
// --fail-above gate failed, its lines then written to `err_fd` after the output) or the
// error; nothing is written to out_fd before every step up to printing has succeeded.
Result<int> ViewerMain(const std::vector<std::string>& args, int out_fd, bool color,
                       int err_fd = 2);

// The whole program: ViewerMain on stdout, errors reported as "proton-viewer: error: ...".
int RunViewerCommand(int argc, char** argv);

}  // namespace proton::viewer
