// See cli_config.h.
#include "core/cli/cli_config.h"

#include <unistd.h>

#include <cstdlib>
#include <string_view>
#include <utility>

#include "protocol/cli_protocol.h"

namespace proton::cli {

namespace cp = proton::cli_protocol;

namespace {

std::string Get(const char* (*get)(const char*), std::string_view key, std::string fallback = "") {
  const char* value = get(std::string(key).c_str());
  return value != nullptr ? std::string(value) : std::move(fallback);
}

const char* StdGetenv(const char* key) { return std::getenv(key); }

}  // namespace

CliConfig ReadCliConfig(const char* (*get)(const char*)) {
  CliConfig config;
  config.enabled = Get(get, cp::kCli) == "1";
  config.name = Get(get, cp::kName, "proton");
  config.fallback_base = Get(get, cp::kFallbackBase, "proton");
  config.context = Get(get, cp::kContext, "shadow");
  config.data = Get(get, cp::kData, "tree");
  config.backend = Get(get, cp::kBackend);
  config.mode = Get(get, cp::kMode);
  config.hook = Get(get, cp::kHook);
  config.format = Get(get, cp::kFormat);
  config.target = Get(get, cp::kTarget);
  config.run_id = Get(get, cp::kRunId);
  config.run_dir = Get(get, cp::kRunDir);
  std::string root = Get(get, cp::kRootPid);
  char* end = nullptr;
  long pid = std::strtol(root.c_str(), &end, 10);
  if (!root.empty() && end != nullptr && *end == '\0' && pid > 0) config.root_pid = pid;
  if (config.context.empty()) config.context = "shadow";
  if (config.data.empty()) config.data = "tree";
  return config;
}

const CliConfig& GetCliConfig() {
  static const CliConfig* config = new CliConfig(ReadCliConfig(StdGetenv));
  return *config;
}

bool IsRootProcess() {
  const CliConfig& config = GetCliConfig();
  return config.enabled && config.root_pid == static_cast<long>(getpid());
}

std::string SessionName(const CliConfig& config, bool root) {
  if (config.name.empty() || config.name == "-") return root ? "-" : config.fallback_base;
  return config.name;
}

}  // namespace proton::cli
