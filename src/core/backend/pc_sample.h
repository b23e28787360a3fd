// The neutral form of PC-sampling results (profiler.md §5.13, formats.md §2.3): the 20 counter
// names in the reference order, and one batch entry a backend hands the core per (function,
// source line) of a sampled launch. Shared by the backend seam and the tree data, so neither
// depends on the other's headers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace proton {

// The 20 PC-sampling counters, in the reference order (formats.md §2.3).
inline constexpr std::array<std::string_view, 20> kPcSamplingNames = {"num_samples",
                                                                      "num_stalled_samples",
                                                                      "stalled_branch_resolving",
                                                                      "stalled_no_instruction",
                                                                      "stalled_short_scoreboard",
                                                                      "stalled_wait",
                                                                      "stalled_long_scoreboard",
                                                                      "stalled_tex_throttle",
                                                                      "stalled_barrier",
                                                                      "stalled_membar",
                                                                      "stalled_imc_miss",
                                                                      "stalled_mio_throttle",
                                                                      "stalled_math_pipe_throttle",
                                                                      "stalled_drain",
                                                                      "stalled_lg_throttle",
                                                                      "stalled_not_Selected",
                                                                      "stalled_misc",
                                                                      "stalled_dispatch_stall",
                                                                      "stalled_sleeping",
                                                                      "stalled_selected"};
using PcCounters = std::array<uint64_t, 20>;
inline constexpr size_t kPcNumSamples = 0;
inline constexpr size_t kPcNumStalledSamples = 1;

// Samples of one launch at one place of its kernel. Views are valid during the sink call only.
struct PcSample {
  // The sampled function (mangled, as CUPTI names it). The core adds it as a child only where
  // the launch's node is not the kernel's own (an op's node, or an unnamed launch).
  std::string_view function;
  // "<dir>/<file>:<line>@<function>" when the cubin has line info, else empty (the counters
  // then land on the kernel's node itself).
  std::string_view source;
  PcCounters counters{};
};

}  // namespace proton
