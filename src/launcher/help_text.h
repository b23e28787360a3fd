// The texts of the `proton` command that users read: usage block, full help, version line.
// They reproduce Python 3.12 argparse output at 80 columns for the reference's parser
// (profiler.md §2.1), so scripts and people used to the reference see the same text.
#pragma once

#include <string_view>

namespace proton::launcher {

// "usage: \n    proton [options] ...\n" (argparse prints it before every usage error).
std::string_view UsageText();
// Usage block, description, positional and option lists (the output of `proton -h`).
std::string_view HelpText();

}  // namespace proton::launcher
