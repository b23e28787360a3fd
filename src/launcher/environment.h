// The environment the target runs in (profiler.md §2.9, §2.11, §2.13): the run description
// (PROTON_CLI_*), CUDA_INJECTION64_PATH and PYTHONPATH, or nothing at all when profiling is
// disabled or another CUDA tool is attached. NVTX_INJECTION64_PATH is not guessed here: the
// CUPTI backend sets it in-process, before the first NVTX call it can see, to the very libcupti
// it loaded (src/cupti), and children inherit it; a launcher guess could name a second copy. Pure
// functions over a copy of the launcher's environment, so they are tested without starting
// anything.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "launcher/layout.h"
#include "launcher/options.h"
#include "launcher/target.h"

namespace proton::launcher {

// "KEY=value" entries, as environ holds them.
using EnvList = std::vector<std::string>;

std::optional<std::string> GetEnv(const EnvList& env, std::string_view key);
void SetEnv(EnvList& env, std::string_view key, std::string_view value);

enum class ProfilingDecision { kProfile, kDisabled, kOtherTool };

// PROTON_DISABLE (or TRITON_PROTON_DISABLE when ours is unset) -> kDisabled;
// CUDA_INJECTION64_PATH naming another file than `core_library` -> kOtherTool.
ProfilingDecision DecideProfiling(const EnvList& env,
                                  const std::optional<std::string>& core_library);

// Absolute base of the output files: `name` (default "proton") made absolute against `cwd`;
// "-" for stdout (`-n -` or `-n ""`).
std::string ResolveBase(const std::optional<std::string>& name, const std::string& cwd);

struct RunSetup {
  LaunchOptions options;
  std::string cwd;  // the launcher's working directory
  Layout layout;
  std::string run_id;
  std::string run_dir;
  TargetKind kind = TargetKind::kNative;
};

// `base` plus the run description. PROTON_CLI_ROOT_PID is set by the child itself (it is
// only known after fork); see child.h.
EnvList BuildEnvironment(const EnvList& base, const RunSetup& setup);

}  // namespace proton::launcher
