// The text of the live view (viewer.md §11.14): one block per phase, from the model of
// live_totals.h. A pipe gets the blocks one after another; a terminal gets the newest one,
// redrawn in place (follow.cc), with names cut to its width.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "viewer/common/options.h"
#include "viewer/live/live_totals.h"

namespace proton::viewer {

struct LiveViewStyle {
  std::string run;               // RUN as typed
  std::string item = "time/ms";  // the -m item shown
  double per_ns = 1e-6;          // the item's units per nanosecond
  size_t width = 0;              // the terminal's columns; 0 (a pipe): names cut at 100 bytes
  DemangleMode demangle = DemangleMode::kOff;
  size_t top = 5;       // rows per list: the phase's top ones, then the run's top ones
  size_t history = 32;  // phases in the history line
};

// The block of `phase` (shown, with its frames kept: LiveTotals::MarkShown), each stream
// labelled by `labels`. Ends in "\n".
std::string RenderPhase(const LiveTotals& totals, int64_t phase,
                        const std::vector<std::string>& labels, const LiveViewStyle& style);

// The history line's picture: one of ▁▂▃▄▅▆▇█ per value, in proportion to the largest: a
// value of up to k eighths of the largest is the k-th bar (the largest █, 0 or less ▁; NaN is a
// space). Proportional, so that a steady run looks steady and a phase twice as long stands out.
std::string Sparkline(const std::vector<double>& values);

}  // namespace proton::viewer
