// Environment knobs of the CUPTI backend.
#include "cupti/cupti_env.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>

#include "core/config/config.h"
#include "core/session/cli_mode.h"

namespace proton::cupti {

std::string EnvValue(const char* name, const char* alias) {
  const char* value = std::getenv(name);
  if (value == nullptr && alias != nullptr) value = std::getenv(alias);
  return value == nullptr ? std::string() : std::string(value);
}

size_t DefaultBufferSize() { return static_cast<size_t>(DefaultConfig().profile_buffer_size); }

size_t ParseBufferSize(const std::string& text) {
  uint64_t value = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value == 0) return DefaultBufferSize();
  constexpr uint64_t kMin = 4096;
  constexpr uint64_t kMax = uint64_t{1} << 34;  // 16 GiB: anything larger is a typo
  if (value < kMin) value = kMin;
  if (value > kMax) value = kMax;
  return static_cast<size_t>((value + 7) & ~uint64_t{7});
}

// The knobs below come from the core's one configuration table (read once per process).
size_t ActivityBufferSize(std::string_view mode) {
  // Periodic flushing: CUPTI hands over a partly filled buffer only at a forced flush, which
  // is safe only when the device is idle (CuptiBackend::FlushCompleted). A busy program's
  // phases complete as buffers fill, so they are small unless the user chose a size.
  constexpr uint64_t kPeriodicFlushingBufferSize = uint64_t{1} << 20;
  if (mode.substr(0, mode.find(':')) == "periodic_flushing" &&
      !LookupKnob("PROTON_PROFILE_BUFFER_SIZE").has_value()) {
    return static_cast<size_t>(kPeriodicFlushingBufferSize);
  }
  return ParseBufferSize(std::to_string(GetConfig().profile_buffer_size));
}

bool NvtxEnabled() { return GetConfig().enable_nvtx; }
bool VerboseEnabled() { return GetConfig().verbose; }
bool DebugCallbacksEnabled() { return GetConfig().debug_callbacks; }
bool CliMode() { return IsCommandLineMode(); }

}  // namespace proton::cupti
