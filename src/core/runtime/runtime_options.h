// What an entry point configures in the profiler runtime, once, when it creates it
// (runtime.h): the model is Perfetto's Tracing::Initialize(TracingInitArgs).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend/registry.h"

namespace proton {

// Output path of a session file. `name` is the session name (never "" or "-": those go to
// standard output before this is called), `suffix` the format ("hatchet", ...),
// `default_name` whether the user gave no name. Returning "-" sends the profile to stdout.
using OutputPathFn =
    std::function<std::string(std::string_view name, std::string_view suffix, bool default_name)>;

// Lazy start of session 0 in CLI mode (cli_mode.h, profiler.md §2.9).
using LazyCliStartFn = void (*)();

// The process-exit finalize that the CUPTI backend registers with atexit once it runs in CLI
// mode (src/cupti/injection_state.h).
using ExitFinalizeFn = void (*)();

struct RuntimeOptions {
  // Command-line mode (§1.4): start() returns None and the calls follow the CLI table (D1,
  // D2). The Python binding may still switch it later (Runtime::SetCommandLineMode).
  bool command_line_mode = false;
  // File names of the sessions' outputs; empty: DefaultOutputPath (cli_mode.h).
  OutputPathFn output_path;
  // Called once (per process) by the first scope, state, metric or op in CLI mode while no
  // session runs; nullptr: nothing starts lazily.
  LazyCliStartFn lazy_cli_start = nullptr;
  ExitFinalizeFn exit_finalize = nullptr;
  // The format a finalize given none writes (the command's -f, profiler.md §2.1); empty: the
  // data kind's default.
  std::string default_output_format;
  // Backends of this runtime, besides the built-in catalogue (registry.h).
  std::vector<BackendRegistration> backends;
};

}  // namespace proton
