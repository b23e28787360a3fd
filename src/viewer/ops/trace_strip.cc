// See trace_strip.h.
#include "viewer/ops/trace_strip.h"

#include <algorithm>

namespace proton::viewer {

std::vector<StripRect> DownsampleSpans(const std::vector<KernelSpan>& kernels, int64_t origin_ns,
                                       int64_t range_ns, int width_px) {
  std::vector<StripRect> rects;
  if (kernels.empty()) return rects;
  // The time one pixel covers, rounded up so that a gap of exactly one pixel still stays; at
  // least 1 ns, so that touching kernels merge and disjoint ones of a short trace do not.
  const int64_t width = std::max(width_px, 1);
  const int64_t pixel_ns = std::max<int64_t>(1, (range_ns + width - 1) / width);
  StripRect run{kernels[0].start_ns, kernels[0].end_ns};
  for (size_t i = 1; i < kernels.size(); ++i) {
    const KernelSpan& k = kernels[i];
    if (k.start_ns - run.end_ns >= pixel_ns) {
      rects.push_back({run.start_ns - origin_ns, run.end_ns - origin_ns});
      run = {k.start_ns, k.end_ns};
    } else {
      run.end_ns = std::max(run.end_ns, k.end_ns);
    }
  }
  rects.push_back({run.start_ns - origin_ns, run.end_ns - origin_ns});
  return rects;
}

}  // namespace proton::viewer
