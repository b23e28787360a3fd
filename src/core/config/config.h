// Every environment knob of the profiler (profiler.md §1.11), defined once in one table and
// read once. Triton's names are accepted as aliases; our PROTON_* name wins when both are set.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "util/bool_knob.h"  // ParseBool, the knobs' boolean parser

namespace proton {

enum class KnobType { kBool, kInt, kString };

struct Knob {
  std::string_view name;   // ours, e.g. "PROTON_PROFILE_BUFFER_SIZE"
  std::string_view alias;  // Triton's name, or "" when there is none
  KnobType type;
  std::string_view default_value;  // text form; "" for an unset string
  std::string_view doc;            // one line
};

// The table itself, for documentation and tests.
std::span<const Knob> KnobTable();

// Values of the knobs, parsed. Booleans follow Triton's parser: 1/true/on (any case) are true.
// The defaults are the table's (ReadConfig, DefaultConfig), not these zero initializers.
struct Config {
  bool disable = false;
  uint64_t profile_buffer_size = 0;
  uint64_t profile_metric_buffer_size = 0;
  bool enable_nvtx = false;
  std::string cupti_library;
  std::string cupti_lib_path;
  std::string cupti_lib_blackwell_path;
  bool enable_hw_trace = false;
  bool data_flush_timing = false;
  std::string python;
  std::optional<bool> alias_triton_profiler;  // unset: true in CLI mode, false otherwise
  bool verbose = false;
  std::string record;
  bool debug_callbacks = false;
};

// Reads every knob from `getenv` (injectable for tests); an unset or unparsable number takes
// the table's default.
using GetEnvFn = const char* (*)(const char*);
Config ReadConfig(GetEnvFn getenv_fn);

// Every knob at its table default (an empty environment), for code that must fall back to a
// default after its own validation (the CUPTI buffer size).
const Config& DefaultConfig();

// The process's configuration, read from the environment at the first call.
const Config& GetConfig();

// The raw text of one knob as set now (ours first, then the alias), or nullopt. Used where a
// knob must be re-read at each use: PROTON_DISABLE, because Triton's
// `knobs.proton.disable = True` writes TRITON_PROTON_DISABLE while the script runs.
std::optional<std::string> LookupKnob(std::string_view name, GetEnvFn getenv_fn = nullptr);

}  // namespace proton
