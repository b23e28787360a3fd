// The knob table and its parser (profiler.md §1.11).
#include "core/config/config.h"

#include <array>
#include <charconv>
#include <cstdlib>

#include "util/ascii.h"

namespace proton {
namespace {

constexpr std::array<Knob, 14> kKnobs = {{
    {"PROTON_DISABLE", "TRITON_PROTON_DISABLE", KnobType::kBool, "false",
     "start() returns None and does nothing; under the command the target runs unprofiled"},
    {"PROTON_PROFILE_BUFFER_SIZE", "TRITON_PROFILE_BUFFER_SIZE", KnobType::kInt, "67108864",
     "bytes per CUPTI activity buffer"},
    {"PROTON_PROFILE_METRIC_BUFFER_SIZE", "TRITON_PROFILE_METRIC_BUFFER_SIZE", KnobType::kInt,
     "67108864", "device buffer for metrics under graph capture"},
    {"PROTON_ENABLE_NVTX", "TRITON_ENABLE_NVTX", KnobType::kBool, "true",
     "NVTX push/pop ranges become scopes"},
    {"PROTON_CUPTI_LIBRARY", "", KnobType::kString, "", "full path of the libcupti file to load"},
    {"PROTON_CUPTI_LIB_PATH", "TRITON_CUPTI_LIB_PATH", KnobType::kString, "",
     "directory that contains libcupti.so"},
    {"PROTON_CUPTI_LIB_BLACKWELL_PATH", "TRITON_CUPTI_LIB_BLACKWELL_PATH", KnobType::kString, "",
     "directory used instead on compute capability >= 10.0"},
    {"PROTON_ENABLE_HW_TRACE", "TRITON_ENABLE_HW_TRACE", KnobType::kBool, "false",
     "CUPTI hardware trace (Blackwell only)"},
    {"PROTON_DATA_FLUSH_TIMING", "", KnobType::kBool, "false", "print periodic-flush timings"},
    {"PROTON_PYTHON", "", KnobType::kString, "",
     "Python interpreter the command uses for script and pytest targets"},
    {"PROTON_ALIAS_TRITON_PROFILER", "", KnobType::kBool, "",
     "make `import triton.profiler` return proton (default: true in CLI mode)"},
    {"PROTON_VERBOSE", "", KnobType::kBool, "false",
     "print library resolution, session start and each file written to stderr"},
    {"PROTON_DEBUG_CALLBACKS", "", KnobType::kBool, "false",
     "one stderr line per CUPTI callback the backend receives"},
    {"PROTON_RECORD", "", KnobType::kString, "",
     "path of a JSON-lines file recording every core input of this process"},
}};

const Knob* FindKnob(std::string_view name) {
  for (const Knob& k : kKnobs) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

uint64_t ParseUint(std::string_view text, uint64_t fallback) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) return fallback;
  return v;
}

}  // namespace

std::span<const Knob> KnobTable() { return kKnobs; }

bool ParseBool(std::string_view text) {
  const std::string lower = AsciiLower(text);
  return lower == "1" || lower == "true" || lower == "on";
}

std::optional<std::string> LookupKnob(std::string_view name, GetEnvFn getenv_fn) {
  if (getenv_fn == nullptr) getenv_fn = [](const char* n) -> const char* { return std::getenv(n); };
  const Knob* knob = FindKnob(name);
  std::string ours(name);
  if (const char* v = getenv_fn(ours.c_str())) return std::string(v);
  if (knob != nullptr && !knob->alias.empty()) {
    std::string alias(knob->alias);
    if (const char* v = getenv_fn(alias.c_str())) return std::string(v);
  }
  return std::nullopt;
}

Config ReadConfig(GetEnvFn getenv_fn) {
  Config c;
  auto text = [&](std::string_view name) { return LookupKnob(name, getenv_fn); };
  auto boolean = [&](std::string_view name, bool fallback) {
    auto v = text(name);
    return v ? ParseBool(*v) : fallback;
  };
  auto str = [&](std::string_view name) { return text(name).value_or(""); };
  c.disable = boolean("PROTON_DISABLE", false);
  if (auto v = text("PROTON_PROFILE_BUFFER_SIZE")) {
    c.profile_buffer_size = ParseUint(*v, c.profile_buffer_size);
  }
  if (auto v = text("PROTON_PROFILE_METRIC_BUFFER_SIZE")) {
    c.profile_metric_buffer_size = ParseUint(*v, c.profile_metric_buffer_size);
  }
  c.enable_nvtx = boolean("PROTON_ENABLE_NVTX", true);
  c.cupti_library = str("PROTON_CUPTI_LIBRARY");
  c.cupti_lib_path = str("PROTON_CUPTI_LIB_PATH");
  c.cupti_lib_blackwell_path = str("PROTON_CUPTI_LIB_BLACKWELL_PATH");
  c.enable_hw_trace = boolean("PROTON_ENABLE_HW_TRACE", false);
  c.data_flush_timing = boolean("PROTON_DATA_FLUSH_TIMING", false);
  c.python = str("PROTON_PYTHON");
  if (auto v = text("PROTON_ALIAS_TRITON_PROFILER")) c.alias_triton_profiler = ParseBool(*v);
  c.verbose = boolean("PROTON_VERBOSE", false);
  c.record = str("PROTON_RECORD");
  c.debug_callbacks = boolean("PROTON_DEBUG_CALLBACKS", false);
  return c;
}

const Config& GetConfig() {
  static const Config config = ReadConfig(nullptr);
  return config;
}

}  // namespace proton
