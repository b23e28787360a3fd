// See environment.h.
#include "launcher/environment.h"

#include "protocol/cli_protocol.h"
#include "util/bool_knob.h"

namespace proton::launcher {

namespace cp = proton::cli_protocol;

namespace {

// Ours wins over the Triton alias when both are set (profiler.md §1.11).
std::optional<std::string> Knob(const EnvList& env, std::string_view ours,
                                std::string_view triton) {
  if (std::optional<std::string> value = GetEnv(env, ours)) return value;
  if (!triton.empty()) return GetEnv(env, triton);
  return std::nullopt;
}

const char* TargetName(TargetKind kind) {
  switch (kind) {
    case TargetKind::kScript: return "script";
    case TargetKind::kPytest: return "pytest";
    case TargetKind::kNative: return "exec";
  }
  return "exec";
}

}  // namespace

std::optional<std::string> GetEnv(const EnvList& env, std::string_view key) {
  for (const std::string& entry : env) {
    if (entry.size() > key.size() && entry[key.size()] == '=' &&
        std::string_view(entry).substr(0, key.size()) == key) {
      return entry.substr(key.size() + 1);
    }
  }
  return std::nullopt;
}

void SetEnv(EnvList& env, std::string_view key, std::string_view value) {
  std::string entry = std::string(key) + "=" + std::string(value);
  for (std::string& existing : env) {
    if (existing.size() > key.size() && existing[key.size()] == '=' &&
        std::string_view(existing).substr(0, key.size()) == key) {
      existing = std::move(entry);
      return;
    }
  }
  env.push_back(std::move(entry));
}

ProfilingDecision DecideProfiling(const EnvList& env,
                                  const std::optional<std::string>& core_library) {
  if (std::optional<std::string> disable = Knob(env, "PROTON_DISABLE", "TRITON_PROTON_DISABLE");
      disable && ParseBool(*disable)) {
    return ProfilingDecision::kDisabled;
  }
  std::optional<std::string> injection = GetEnv(env, cp::kCudaInjection);
  if (injection && !injection->empty()) {
    std::optional<std::string> theirs = RealPath(*injection);
    if (!core_library || !theirs || *theirs != *core_library) return ProfilingDecision::kOtherTool;
  }
  return ProfilingDecision::kProfile;
}

std::string ResolveBase(const std::optional<std::string>& name, const std::string& cwd) {
  std::string base = name.value_or("proton");
  if (base.empty() || base == "-") return "-";
  if (base[0] == '/') return base;
  return cwd == "/" ? "/" + base : cwd + "/" + base;
}

EnvList BuildEnvironment(const EnvList& base, const RunSetup& setup) {
  EnvList env = base;
  const LaunchOptions& o = setup.options;
  const std::string resolved = ResolveBase(o.name, setup.cwd);
  SetEnv(env, cp::kCli, "1");
  SetEnv(env, cp::kName, resolved);
  SetEnv(env, cp::kFallbackBase, ResolveBase(std::nullopt, setup.cwd));
  SetEnv(env, cp::kContext, o.context);
  SetEnv(env, cp::kData, o.data);
  SetEnv(env, cp::kBackend, o.backend.value_or(""));
  SetEnv(env, cp::kMode, o.mode.value_or(""));
  SetEnv(env, cp::kHook, o.hook.value_or(""));
  SetEnv(env, cp::kFormat, o.format.value_or(""));
  SetEnv(env, cp::kRunId, setup.run_id);
  SetEnv(env, cp::kRunDir, setup.run_dir);
  SetEnv(env, cp::kTarget, TargetName(setup.kind));
  if (setup.layout.core_library) SetEnv(env, cp::kCudaInjection, *setup.layout.core_library);

  std::string python_path;
  for (const std::optional<std::string>& dir :
       {setup.layout.bootstrap_dir, setup.layout.package_parent}) {
    if (!dir) continue;
    if (!python_path.empty()) python_path += ":";
    python_path += *dir;
  }
  if (std::optional<std::string> existing = GetEnv(env, cp::kPythonPath);
      existing && !existing->empty()) {
    python_path += python_path.empty() ? *existing : ":" + *existing;
  }
  if (!python_path.empty()) SetEnv(env, cp::kPythonPath, python_path);
  return env;
}

}  // namespace proton::launcher
