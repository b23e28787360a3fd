// The environment knobs the CUPTI backend reads (profiler.md §1.11). The profiler's knobs come
// from the core's configuration table (src/core/config); EnvValue reads the few other
// variables the library search needs (CUDA_HOME, VIRTUAL_ENV, ...). Never read in callbacks.
#pragma once

#include <cstddef>
#include <string>

namespace proton::cupti {

// The value of `name`, else of `alias` (may be nullptr), else "".
std::string EnvValue(const char* name, const char* alias = nullptr);

// PROTON_PROFILE_BUFFER_SIZE's default in the core's knob table (64 MiB, as the reference).
size_t DefaultBufferSize();
// PROTON_PROFILE_BUFFER_SIZE / TRITON_PROFILE_BUFFER_SIZE in bytes, rounded up to 8 bytes and at
// least 4 KiB; unparsable values give the default.
// Bytes per activity buffer: PROTON_PROFILE_BUFFER_SIZE, or 1 MiB in periodic_flushing mode
// when that knob is unset (profiler.md §1.11, §3.11).
size_t ActivityBufferSize(std::string_view mode);
size_t ParseBufferSize(const std::string& text);

bool NvtxEnabled();            // PROTON_ENABLE_NVTX / TRITON_ENABLE_NVTX, default true
bool VerboseEnabled();         // PROTON_VERBOSE
bool DebugCallbacksEnabled();  // PROTON_DEBUG_CALLBACKS
bool CliMode();                // PROTON_CLI=1: the process runs under the `proton` command

}  // namespace proton::cupti
