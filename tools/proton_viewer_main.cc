// proton-viewer: prints a Proton call-tree profile (viewer.md). Everything lives in
// src/viewer; this main only hands argv over.
#include "viewer/cli/viewer_command.h"

int main(int argc, char** argv) { return proton::viewer::RunViewerCommand(argc, argv); }
