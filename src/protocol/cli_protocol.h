// The launcher -> process protocol (profiler.md §2.9, §2.13): environment variable names and
// the layout of the per-run directory. The launcher (src/launcher) writes them and the CLI
// part of the core (src/core/cli) reads them; it lives apart from both so that both sides
// agree on one definition and neither depends on the other. Header only, standard library
// only (the proton_protocol interface target).
#pragma once

#include <string_view>

namespace proton::cli_protocol {

// Public protocol (§2.13).
inline constexpr std::string_view kCli = "PROTON_CLI";        // "1"
inline constexpr std::string_view kName = "PROTON_CLI_NAME";  // absolute base or "-"
inline constexpr std::string_view kContext = "PROTON_CLI_CONTEXT";
inline constexpr std::string_view kData = "PROTON_CLI_DATA";
inline constexpr std::string_view kBackend = "PROTON_CLI_BACKEND";
inline constexpr std::string_view kMode = "PROTON_CLI_MODE";
inline constexpr std::string_view kHook = "PROTON_CLI_HOOK";
inline constexpr std::string_view kRootPid = "PROTON_CLI_ROOT_PID";
inline constexpr std::string_view kRunId = "PROTON_CLI_RUN_ID";
inline constexpr std::string_view kRunDir = "PROTON_CLI_RUN_DIR";

// Internal additions (ours; not read by anything but our own processes).
// Base used by processes other than the root when the name is "-" (stdout): `<cwd>/proton`.
inline constexpr std::string_view kFallbackBase = "PROTON_CLI_FALLBACK_BASE";
// "script" when the root runs a Python script target (the bootstrap then prints the
// "An error occurred while executing the script:" line for uncaught exceptions), "pytest"
// for pytest targets, "exec" for executables.
inline constexpr std::string_view kTarget = "PROTON_CLI_TARGET";
// The -f format every process writes its profile in; empty: the data kind's default.
inline constexpr std::string_view kFormat = "PROTON_CLI_FORMAT";

// Run directory layout: claims of rank names are files "claim.rank<R>" made by exclusive
// creation (content: the claiming pid); every process that chooses an output file appends
// one line "<kind>\t<pid>\t<absolute path>\n" to "files" (O_APPEND, one write() per line,
// so concurrent writers never interleave). kind is one of the kFileKind* values.
inline constexpr std::string_view kClaimPrefix = "claim.";
inline constexpr std::string_view kFilesRecord = "files";
inline constexpr std::string_view kFileKindRoot = "root";
inline constexpr std::string_view kFileKindRank = "rank";
inline constexpr std::string_view kFileKindPid = "pid";

// Other variables the launcher sets (§2.9).
inline constexpr std::string_view kCudaInjection = "CUDA_INJECTION64_PATH";
inline constexpr std::string_view kNvtxInjection = "NVTX_INJECTION64_PATH";
inline constexpr std::string_view kPythonPath = "PYTHONPATH";

}  // namespace proton::cli_protocol
