// DownsampleSpans (trace_strip.h): known spans give known rectangles, a gap of a pixel or
// more stays, shorter ones merge, and a million kernels give at most width + 1 rectangles.
#include "viewer/ops/trace_strip.h"

#include <gtest/gtest.h>

#include <vector>

namespace proton::viewer {
namespace {

std::vector<std::pair<int64_t, int64_t>> Pairs(const std::vector<StripRect>& rects) {
  std::vector<std::pair<int64_t, int64_t>> out;
  out.reserve(rects.size());
  for (const StripRect& r : rects) out.emplace_back(r.start_ns, r.end_ns);
  return out;
}

// 1000 ns over 10 px: a pixel is 100 ns. [0,100] and [150,200] are 50 ns apart (merged);
// [300,400] is 100 ns after (kept apart); [350,380] lies inside it; [900,1000] stands alone.
TEST(TraceStrip, MergesGapsUnderOnePixel) {
  const std::vector<KernelSpan> k = {
      {0, 100, 0}, {150, 200, 0}, {300, 400, 0}, {350, 380, 0}, {900, 1000, 0}};
  EXPECT_EQ(Pairs(DownsampleSpans(k, 0, 1000, 10)),
            (std::vector<std::pair<int64_t, int64_t>>{{0, 200}, {300, 400}, {900, 1000}}));
}

TEST(TraceStrip, RelativeToOriginAndEmpty) {
  const std::vector<KernelSpan> k = {{5000, 5010, 0}, {5500, 5600, 0}};
  EXPECT_EQ(Pairs(DownsampleSpans(k, 5000, 600, 1200)),
            (std::vector<std::pair<int64_t, int64_t>>{{0, 10}, {500, 600}}));
  EXPECT_TRUE(DownsampleSpans({}, 0, 100).empty());
}

// A million 1 us kernels with 1 us between them (1 us is far under a pixel of 2 s / 1200):
// one rectangle; with every 1000th gap 10 ms long: 1000 rectangles, each gap kept.
TEST(TraceStrip, MillionKernelsStayBounded) {
  constexpr int64_t kKernels = 1'000'000;
  std::vector<KernelSpan> dense, gappy;
  dense.reserve(kKernels);
  gappy.reserve(kKernels);
  int64_t t = 0;
  for (int64_t i = 0; i < kKernels; ++i) {
    dense.push_back({2 * i * 1000, 2 * i * 1000 + 1000, 0});
    gappy.push_back({t, t + 1000, 0});
    t += (i % 1000 == 999) ? 10'000'000 : 2000;
  }
  const int64_t dense_span = dense.back().end_ns;
  EXPECT_EQ(DownsampleSpans(dense, 0, dense_span).size(), 1u);
  const std::vector<StripRect> rects = DownsampleSpans(gappy, 0, gappy.back().end_ns);
  EXPECT_EQ(rects.size(), 1000u);
  EXPECT_LE(rects.size(), static_cast<size_t>(kStripWidthPx) + 1);
  // Every 2 us gap is far under a pixel, so all merge: random-ish short gaps never exceed
  // the bound either.
  std::vector<KernelSpan> spread;
  spread.reserve(kKernels);
  for (int64_t i = 0; i < kKernels; ++i) spread.push_back({i * 5000, i * 5000 + 10, 0});
  EXPECT_LE(DownsampleSpans(spread, 0, spread.back().end_ns, 1200).size(), 1201u);
}

}  // namespace
}  // namespace proton::viewer
