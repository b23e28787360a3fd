// The `proton` command: profile a script, pytest or any executable (profiler.md §2).
#include "launcher/launcher.h"

int main(int argc, char** argv) { return proton::launcher::LauncherMain(argc, argv); }
