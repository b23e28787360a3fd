// The pure parts of CUPTI PC sampling (profiler.md §1.10, §5.13), kept apart from the calls
// into CUPTI so that each rule is tested directly: the interval → sampling-period exponent
// mapping, matching CUPTI's stall reasons to the 20 counter names, decoding one PC record into
// counters, the 12.4 PC-record ABI guard, and the one-line messages of the known failures.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/backend/pc_sample.h"
#include "cupti/cupti_api.h"
#include "util/status.h"

namespace proton::cupti {

// CUPTI's allowed sampling-period exponents (cupti_pcsampling.h: 2^5 .. 2^31 cycles).
inline constexpr int kMinSamplingExponent = 5;
inline constexpr int kMaxSamplingExponent = 31;
inline constexpr int kDefaultSamplingExponent = 10;  // the reference's fixed period
// CUPTI 12.4 (API version 22) added CUpti_PCSamplingPCData::correlationId.
inline constexpr uint32_t kPcRecordAbiVersion = 22;

// The exponent of the power of two nearest to `interval` cycles (a tie takes the lower one),
// clamped to CUPTI's range.
int IntervalToExponent(uint64_t interval);
// The exponent for a mode string "pcsampling[:interval=N]" (already validated by the core).
int SamplingExponentOfMode(std::string_view mode);

// Which counter each configured CUPTI stall reason feeds.
struct StallReasonTable {
  struct Reason {
    size_t metric = 0;        // index into kPcSamplingNames
    bool not_issued = false;  // samples counted, stalled samples not
  };
  std::vector<uint32_t> indices;  // the CUPTI indices to configure, in CUPTI's order
  std::unordered_map<uint32_t, Reason> by_index;
  size_t available = 0;  // stall reasons CUPTI offered
};

// A CUPTI stall reason matches the first counter name (after num_samples and
// num_stalled_samples) that it contains, as in the reference: so CUPTI's
// "..._stalled_not_selected" matches no name (ours is "stalled_not_Selected") and is left out.
StallReasonTable MatchStallReasons(std::span<const std::string> names,
                                   std::span<const uint32_t> indices);

// Adds one PC record's stall-reason samples to `counters`. Returns how many of its samples had
// a stall reason outside the table (not configured: none expected).
uint64_t AddPcRecord(const StallReasonTable& table, const CUpti_PCSamplingPCData& pc,
                     PcCounters* counters);

// "<dir>/<file>:<line>@<function>", or "" without a file (no line info in the cubin).
std::string FormatSourceLocation(std::string_view dir, std::string_view file, uint32_t line,
                                 std::string_view function);

// Fails when the library and the headers we build with sit on different sides of the 12.4
// PC-record ABI change.
Status CheckPcRecordAbi(uint32_t library_version, uint32_t header_version);

// "cuptiPCSamplingEnable failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)" plus, for the
// permission errors, what the driver says and how to fix it.
std::string PcSamplingCallError(const CuptiApi* api, const char* function, CUptiResult result);

}  // namespace proton::cupti
