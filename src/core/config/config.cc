// The knob table and its parser (profiler.md §1.11).
#include "core/config/config.h"

#include <array>
#include <charconv>
#include <cstdlib>

#include "util/check.h"

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

// Every name ReadConfig asks for is in the table (the DefaultsComeFromTheTable test reads
// each one), so a miss is a programming error.
const Knob& KnobNamed(std::string_view name) {
  const Knob* knob = FindKnob(name);
  PROTON_CHECK(knob != nullptr) << "unknown knob " << name;
  return *knob;
}

uint64_t ParseUint(std::string_view text, uint64_t fallback) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) return fallback;
  return v;
}

}  // namespace

std::span<const Knob> KnobTable() { return kKnobs; }

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
  // Each knob's default is its table entry: the text used when neither name is set.
  auto text = [&](std::string_view name) {
    if (std::optional<std::string> v = LookupKnob(name, getenv_fn)) return *v;
    return std::string(KnobNamed(name).default_value);
  };
  auto boolean = [&](std::string_view name) { return ParseBool(text(name)); };
  auto uint = [&](std::string_view name) {
    return ParseUint(text(name), ParseUint(KnobNamed(name).default_value, 0));
  };
  Config c;
  c.disable = boolean("PROTON_DISABLE");
  c.profile_buffer_size = uint("PROTON_PROFILE_BUFFER_SIZE");
  c.profile_metric_buffer_size = uint("PROTON_PROFILE_METRIC_BUFFER_SIZE");
  c.enable_nvtx = boolean("PROTON_ENABLE_NVTX");
  c.cupti_library = text("PROTON_CUPTI_LIBRARY");
  c.cupti_lib_path = text("PROTON_CUPTI_LIB_PATH");
  c.cupti_lib_blackwell_path = text("PROTON_CUPTI_LIB_BLACKWELL_PATH");
  c.enable_hw_trace = boolean("PROTON_ENABLE_HW_TRACE");
  c.data_flush_timing = boolean("PROTON_DATA_FLUSH_TIMING");
  c.python = text("PROTON_PYTHON");
  // A set variable counts even when empty; an empty default means unset: the mode decides.
  std::optional<std::string> alias = LookupKnob("PROTON_ALIAS_TRITON_PROFILER", getenv_fn);
  std::string_view alias_default = KnobNamed("PROTON_ALIAS_TRITON_PROFILER").default_value;
  if (!alias && !alias_default.empty()) alias = std::string(alias_default);
  if (alias) c.alias_triton_profiler = ParseBool(*alias);
  c.verbose = boolean("PROTON_VERBOSE");
  c.record = text("PROTON_RECORD");
  c.debug_callbacks = boolean("PROTON_DEBUG_CALLBACKS");
  return c;
}

const Config& DefaultConfig() {
  static const Config kConfig = ReadConfig([](const char*) -> const char* { return nullptr; });
  return kConfig;
}

const Config& GetConfig() {
  static const Config kConfig = ReadConfig(nullptr);
  return kConfig;
}

}  // namespace proton
