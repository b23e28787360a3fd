// The `proton` command as a function: parse options, classify the target, build the
// environment, run the child, apply the rename rule, print the final line, exit like the
// child. tools/proton_main.cc only calls it.
#pragma once

namespace proton::launcher {

// Returns the exit status for usage and launcher errors; when the target ran, it does not
// return (it exits or dies like the target, profiler.md §2.5).
int LauncherMain(int argc, char** argv);

}  // namespace proton::launcher
