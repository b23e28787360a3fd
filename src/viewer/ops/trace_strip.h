// The timeline strip of one stream on the --trace-report --html page (viewer.md §11.18): its
// kernels as busy rectangles over a strip of fixed width, downsampled in C++ so that a
// stream of a million kernels still draws at most width + 1 rectangles.
#pragma once

#include <cstdint>
#include <vector>

#include "viewer/ops/trace_collect.h"

namespace proton::viewer {

// The strip's width in pixels: the page draws every strip over this many columns.
inline constexpr int kStripWidthPx = 1200;

// A busy stretch of a stream, relative to the trace's first kernel start.
struct StripRect {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// `kernels` sorted by start, drawn over a strip of `width_px` pixels covering `range_ns`
// from `origin_ns`: overlapping kernels and kernels apart by less than one pixel's time are
// merged into one rectangle, so every rectangle but the last is followed by a gap of at
// least one pixel and there are at most width_px + 1 of them. A gap of a pixel or more is
// never merged away, so the idle time the strip shows is the stream's to within a pixel.
std::vector<StripRect> DownsampleSpans(const std::vector<KernelSpan>& kernels, int64_t origin_ns,
                                       int64_t range_ns, int width_px = kStripWidthPx);

}  // namespace proton::viewer
