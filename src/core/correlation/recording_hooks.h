// The PROTON_RECORD lines (record/recorder.h) of the backend's calls into the core: one
// function per BackendSink hook, writing that hook's arguments. Callers test Recording()
// first, so that the hooks cost one call while nothing is recorded; each runs on the thread of
// its hook. src/core/testing/recording_replay.cc reads these lines back.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/backend/backend.h"

namespace proton {

void RecordLaunchEnter(uint64_t correlation_id, std::string_view kernel_name,
                       uint32_t expected_records);
void RecordLaunchExit(uint64_t correlation_id);
void RecordNvtxPush(std::string_view message);
void RecordNvtxPop();
void RecordGraphCaptured(uint64_t capture_key, std::string_view kernel_name);
void RecordGraphReleased(uint64_t capture_key);
void RecordKernel(const KernelRecord& record);
void RecordPcSamples(uint64_t correlation_id, std::span<const PcSample> samples);
void RecordBufferCompleted(uint64_t max_correlation_id);
void RecordRecordsLost(RecordLoss why, uint64_t count);

}  // namespace proton
