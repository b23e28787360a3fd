// The run description a process of a `proton` run gets from the launcher (profiler.md §2.13),
// read once from the environment. Every part of src/core/cli reads it from here.
#pragma once

#include <string>

namespace proton::cli {

struct CliConfig {
  bool enabled = false;       // PROTON_CLI=1
  std::string name;           // absolute base, or "-" for stdout
  std::string fallback_base;  // base for non-root processes when name is "-"
  std::string context = "shadow";
  std::string data = "tree";
  std::string backend;
  std::string mode;
  std::string hook;
  std::string format;  // -f; "" = the data kind's default
  std::string target;  // "script", "pytest" or "exec"
  long root_pid = -1;
  std::string run_id;
  std::string run_dir;
};

// Reads the environment on first use; later calls return the same values.
const CliConfig& GetCliConfig();

// Parses a config from a getenv-like function (tests).
CliConfig ReadCliConfig(const char* (*get)(const char*));

// Whether this process is the root process of the run (the child the launcher started).
// Compared with the current pid, so a forked child is never the root.
bool IsRootProcess();

// The session name this process uses: the base, or for non-root processes when the name is
// "-" the fallback base (only the root writes to stdout, §2.9).
std::string SessionName(const CliConfig& config, bool root);

}  // namespace proton::cli
