// PC sampling (profiler.md §3.10): where one launch's decoded samples land in the nodes
// captured at its launch. Runs on the application thread, at launch exit.
#pragma once

#include <cstddef>
#include <span>

#include "core/backend/backend.h"
#include "core/context/thread_context.h"

namespace proton {

// Adds `samples` below each tree target (trace data has no place for counters): under the
// kernel's function when the target is an op's or an unnamed launch's node, then the source
// line, as the reference does.
void AttributePcSamples(const CaptureTarget* targets, size_t count,
                        std::span<const PcSample> samples);

}  // namespace proton
