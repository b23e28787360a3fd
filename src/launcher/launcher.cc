// See launcher.h. The steps of a run, in order; each step's logic lives in its own file.
#include "launcher/launcher.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/session/format_names.h"
#include "core/session/mode.h"
#include "launcher/child.h"
#include "launcher/environment.h"
#include "launcher/help_text.h"
#include "launcher/layout.h"
#include "launcher/options.h"
#include "launcher/output_path.h"
#include "launcher/outputs.h"
#include "launcher/run_dir.h"
#include "launcher/target.h"
#include "protocol/cli_protocol.h"
#include "util/bool_knob.h"
#include "util/command_main.h"
#include "util/printable.h"

extern char** environ;

#ifndef PROTON_VERSION_STRING
#define PROTON_VERSION_STRING "0.0.0"
#endif

namespace proton::launcher {

namespace {

constexpr std::string_view kProgram = "proton";

void PrintStderr(const std::string& text) {
  std::fflush(stdout);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

int Fail(int status, const std::string& message) {
  PrintStderr("proton: error: " + message + "\n");
  return status;
}

EnvList CurrentEnvironment() {
  EnvList env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    env.emplace_back(*entry);
  }
  return env;
}

std::string CurrentDirectory(const EnvList& env) {
  std::vector<char> buffer(4096);
  while (getcwd(buffer.data(), buffer.size()) == nullptr) {
    if (errno != ERANGE) return GetEnv(env, "PWD").value_or("/");
    buffer.resize(buffer.size() * 2);
  }
  return buffer.data();
}

// `added_env_bytes`: what the profiler's variables added to the environment, named when the
// exec fails with E2BIG, since the same command runs without proton.
int ExecFailure(const TargetPlan& plan, int error, size_t added_env_bytes = 0) {
  const int status = (error == ENOENT || error == ENOTDIR) ? 127 : 126;
  std::string message =
      "cannot execute " + PrintableText(plan.executable) + ": " + std::strerror(error);
  if (error == E2BIG && added_env_bytes > 0) {
    message += " (the arguments and environment, with the " + std::to_string(added_env_bytes) +
               " bytes of variables proton adds, exceed the system's limit of " +
               std::to_string(sysconf(_SC_ARG_MAX)) + " bytes)";
  }
  return Fail(status, message);
}

size_t EnvironmentBytes(const EnvList& env) {
  size_t bytes = 0;
  for (const std::string& entry : env) bytes += entry.size() + 1 + sizeof(char*);
  return bytes;
}

// Runs the target with the environment unchanged (disabled or another tool attached).
int RunUnprofiled(const TargetPlan& plan, const EnvList& env) {
  ChildOutcome outcome = RunChild(ChildSpec{plan.executable, plan.argv, env, ""});
  if (const auto* failed = std::get_if<ChildExecFailed>(&outcome)) {
    return ExecFailure(plan, failed->error);
  }
  ExitLike(outcome);
}

void ReportOutputs(const RunSetup& setup, bool verbose) {
  const std::string base = ResolveBase(setup.options.name, setup.cwd);
  const std::string effective_base = base == "-" ? ResolveBase(std::nullopt, setup.cwd) : base;
  const std::string typed_base =
      base == "-" ? std::string("proton") : setup.options.name.value_or("proton");
  OutputPlan plan =
      PlanOutputs(ReadFileRecords(setup.run_dir), effective_base,
                  [](const std::string& path) { return access(path.c_str(), F_OK) == 0; });
  for (const auto& [from, to] : plan.renames) {
    if (std::rename(from.c_str(), to.c_str()) != 0) {
      PrintStderr("proton: warning: cannot rename " + PrintableText(from) + " to " +
                  PrintableText(to) + ": " + std::strerror(errno) + "\n");
    }
  }
  if (plan.files.empty() || (plan.only_base_file && !verbose)) return;
  std::vector<std::string> shown;
  for (const std::string& file : plan.files) {
    shown.push_back(PrintableText(DisplayPath(file, effective_base, typed_base)));
  }
  PrintStderr(WroteLine(shown));
}

// A bad -m would otherwise reach every process of the run, which then runs unprofiled with a
// warning and exits 0: reject it here, once, before anything starts (§1.10, §2.6).
std::optional<std::string> ModeError(const LaunchOptions& options) {
  if (!options.mode.has_value() || options.mode->empty()) return std::nullopt;
  Result<ModeSpec> spec = ParseMode(*options.mode);
  if (!spec.ok()) return "argument -m/--mode: " + spec.status().message();
  if (spec->name == "periodic_flushing") {
    auto it = spec->options.find("format");
    if (it != spec->options.end() && IsTraceFormat(it->second) != (options.data == "trace")) {
      return "argument -m/--mode: periodic_flushing:format=" + it->second + " cannot write -d " +
             options.data;
    }
  }
  return std::nullopt;
}

// -f against -d and -m (§2.1): a format of the other data kind is refused, and with
// periodic_flushing the parts take -f's format (added to -m, which then reaches every process);
// a different periodic_flushing:format= is refused too. Call after ModeError.
std::optional<std::string> ApplyFormat(LaunchOptions& options) {
  if (!options.format.has_value()) return std::nullopt;
  const std::string& format = *options.format;
  if (IsTraceFormat(format) != (options.data == "trace")) {
    return "argument -f/--format: " + format + " cannot write -d " + options.data;
  }
  if (!options.mode.has_value() || options.mode->empty()) return std::nullopt;
  Result<ModeSpec> spec = ParseMode(*options.mode);
  if (!spec.ok() || spec->name != "periodic_flushing") return std::nullopt;
  auto it = spec->options.find("format");
  if (it == spec->options.end()) {
    options.mode->append(":format=").append(format);
  } else if (it->second != format) {
    return "argument -f/--format: " + format + " conflicts with -m " + *options.mode;
  }
  return std::nullopt;
}

void WarnAboutLayout(const Layout& layout) {
  if (!layout.core_library) {
    PrintStderr(
        "proton: warning: libproton.so not found next to the launcher; "
        "only Python processes are profiled\n");
  }
  if (!layout.bootstrap_dir || !layout.package_parent) {
    PrintStderr(
        "proton: warning: the proton Python package was not found next to the "
        "launcher; Python processes are profiled through CUDA only\n");
  }
}

// Starts the target with the profiling environment and reports its files once it ended.
Result<int> RunProfiled(const LaunchOptions& options, const TargetPlan& plan, const EnvList& env,
                        const Layout& layout, bool verbose) {
  RunSetup setup;
  setup.options = options;
  setup.cwd = CurrentDirectory(env);
  // Before the target runs, not after hours of it: a folder that cannot take the profiles.
  if (const std::string base = ResolveBase(options.name, setup.cwd); base != "-") {
    if (std::optional<std::string> error = OutputPathError(base)) return Fail(1, *error);
  }
  PROTON_ASSIGN_OR_RETURN(RunDirectory run_dir,
                          CreateRunDirectory(GetEnv(env, "TMPDIR").value_or("/tmp")));
  setup.layout = layout;
  setup.run_id = run_dir.run_id;
  setup.run_dir = run_dir.path;
  setup.kind = plan.kind;
  if (verbose) {
    PrintStderr("proton: library " + layout.core_library.value_or("(none)") + ", bootstrap " +
                layout.bootstrap_dir.value_or("(none)") + ", run directory " + run_dir.path + "\n");
  }
  EnvList child_env = BuildEnvironment(env, setup);
  const size_t added_env_bytes = EnvironmentBytes(child_env) - EnvironmentBytes(env);
  ChildOutcome outcome = RunChild(ChildSpec{plan.executable, plan.argv, std::move(child_env),
                                            std::string(cli_protocol::kRootPid)});
  if (const auto* failed = std::get_if<ChildExecFailed>(&outcome)) {
    RemoveRunDirectory(run_dir.path);
    return ExecFailure(plan, failed->error, added_env_bytes);
  }
  ReportOutputs(setup, verbose);
  RemoveRunDirectory(run_dir.path);
  ExitLike(outcome);
}

Result<int> Run(const LaunchOptions& given) {
  LaunchOptions options = given;
  if (std::optional<std::string> error = ModeError(options)) return Fail(2, *error);
  if (std::optional<std::string> error = ApplyFormat(options)) return Fail(2, *error);
  EnvList env = CurrentEnvironment();
  auto lookup = [&env](std::string_view key) { return GetEnv(env, key); };
  std::variant<TargetPlan, TargetError> classified = ClassifyTarget(options.target, lookup);
  if (const auto* error = std::get_if<TargetError>(&classified)) {
    return Fail(error->exit_status, error->message);
  }
  const TargetPlan& plan = std::get<TargetPlan>(classified);
  const bool verbose = ParseBool(GetEnv(env, "PROTON_VERBOSE").value_or(""));

  Layout layout = FindLayout(GetEnv(env, "PROTON_LIBRARY"));
  switch (DecideProfiling(env, layout.core_library)) {
    case ProfilingDecision::kDisabled: return RunUnprofiled(plan, env);
    case ProfilingDecision::kOtherTool:
      PrintStderr("proton: warning: another CUDA tool is attached (CUDA_INJECTION64_PATH=" +
                  PrintableText(GetEnv(env, cli_protocol::kCudaInjection).value_or("")) +
                  "); running the target without profiling\n");
      return RunUnprofiled(plan, env);
    case ProfilingDecision::kProfile: break;
  }
  WarnAboutLayout(layout);
  return RunProfiled(options, plan, env, layout, verbose);
}

}  // namespace

int LauncherMain(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  return RunCommand(kProgram, UsageText(), [&]() -> Result<int> {
    PROTON_ASSIGN_OR_RETURN(ParsedCommand parsed, ParseCommandLine(args));
    switch (parsed.action) {
      case ParsedCommand::Action::kHelp:
        std::fwrite(HelpText().data(), 1, HelpText().size(), stdout);
        return 0;
      case ParsedCommand::Action::kVersion:
        std::printf("proton %s\n", PROTON_VERSION_STRING);
        return 0;
      case ParsedCommand::Action::kRun: break;
    }
    return Run(parsed.options);
  });
}

}  // namespace proton::launcher
