// Parsing of the `proton` command line (profiler.md §2.1, §2.2): the reference's argparse
// options, read by the argparse engine (util/argparse.h: `--name=x`, `-nx`, unique long
// prefixes), and everything from the first positional token on passed to the target verbatim.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "util/status.h"

namespace proton::launcher {

struct LaunchOptions {
  std::optional<std::string> name;     // -n; nullopt -> "proton"
  std::optional<std::string> backend;  // -b; nullopt -> auto
  std::string context = "shadow";      // -c
  std::optional<std::string> mode;     // -m
  std::string data = "tree";           // -d
  std::optional<std::string> hook;     // -k
  std::optional<std::string> format;   // -f (ours); nullopt -> the data kind's default
  std::vector<std::string> target;     // target and its arguments, verbatim
};

struct ParsedCommand {
  enum class Action { kRun, kHelp, kVersion };
  Action action = Action::kRun;
  LaunchOptions options;
};

// Parses the arguments after argv[0]. Usage errors (unknown option, bad choice, missing value,
// no target) come back as ErrorKind::kUsage with argparse's message text.
Result<ParsedCommand> ParseCommandLine(const std::vector<std::string>& args);

}  // namespace proton::launcher
