// Internal hooks for the command-line lifecycle (src/core/cli, profiler.md §1.4, §2.7, §2.9).
// The core stays generic: the CLI decides file names and when to start and finalize, through
// the options it creates the process runtime with (src/core/runtime/runtime_options.h). Each
// function here acts on the process runtime (ProcessRuntime()).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/hot_flags.h"
#include "core/runtime/runtime_options.h"
#include "proton/proton.h"

namespace proton {

// Command-line mode of the process runtime (RuntimeOptions::command_line_mode): in CLI mode
// start() returns None (§1.4) and the activate/deactivate/finalize/data calls follow the CLI
// table (D1, D2).
void SetCommandLineMode(bool on);
bool IsCommandLineMode();

// Creates (or joins) session 0 for the command, bypassing the CLI-mode rule of start().
// PROTON_DISABLE still applies (returns nullopt). `scopes_only`: start no backend (the lazy
// start below); a later call without it joins the session and starts the backend.
Result<std::optional<int>> StartCliSession(const StartOptions& options, bool scopes_only = false);

// Lazy start of session 0 (§2.9): a non-root process of a `proton` run starts its session at
// its first CUDA call (injection), but scopes, states, metrics and ops used before that must
// not be lost. EnterScope, AddMetrics, EnterState and EnterOp call MaybeStartCliSessionLazily,
// which, in CLI mode with no session yet, calls RuntimeOptions::lazy_cli_start once
// (src/core/cli gives proton::cli::StartSessionZero's lazy form). Outside CLI mode it costs
// one relaxed load, inline, of the hot line (hot_flags.h) that the scope enter reads next.
// `entering_scope_id`: the scope being entered (it belongs to the new session), or 0.
void StartCliSessionLazily(uint64_t entering_scope_id);
inline void MaybeStartCliSessionLazily(uint64_t entering_scope_id = 0) {
  if (g_hot.command_line_mode.load(std::memory_order_relaxed)) [[unlikely]] {
    StartCliSessionLazily(entering_scope_id);
  }
}

// Whether this process recorded anything (a scope, metric or kernel) in any session.
bool HasRecordedAnything();
// Finalizes every session with a flush that does not wait for the device (the signal
// writer's path, §2.10: a hung kernel must not block the write).
Status FinalizeAllWithoutSynchronizing();

// The default output path of a session file (OutputPathFn, runtime_options.h): adds
// ".rank<R>" for default names when a rank variable is set and the world size is above 1
// (§1.2, core/config/rank.h), then "." + suffix.
std::string DefaultOutputPath(std::string_view name, std::string_view suffix, bool default_name);

}  // namespace proton
