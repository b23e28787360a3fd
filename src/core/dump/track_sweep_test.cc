// Tests of the per-track ordering (track_sweep.h, formats.md §7.4): lanes grouped, enclosing
// slices first, ends before begins at one time, instants inside slices, partial overlaps
// clamped, a stop honoured.
#include "core/dump/track_sweep.h"

#include <gtest/gtest.h>

#include <string>

namespace proton {
namespace {

// "<kind><ref><mark>@<ts>" (std::string::append: operator+ on temporaries trips GCC 12's
// -Wrestrict).
std::string Step(std::string kind, const std::string& ref, std::string_view mark, uint64_t ts) {
  return kind.append(ref).append(mark).append("@").append(std::to_string(ts));
}

// Records the sweep as text: "B<ref>@<ts>", "E@<ts>", "I<ref>@<ts>", clamped begins "B<ref>!".
struct Recorder {
  std::vector<std::string> steps;
  size_t stop_after = SIZE_MAX;
  void Begin(const TrackItem& item, bool clamped) {
    steps.push_back(Step("B", std::to_string(item.ref), clamped ? "!" : "", item.start));
  }
  void End(uint64_t ts) { steps.push_back(Step("E", "", "", ts)); }
  void Instant(const TrackItem& item) {
    steps.push_back(Step("I", std::to_string(item.ref), "", item.start));
  }
  bool Stopped() const { return steps.size() >= stop_after; }
};

TrackItem Slice(uint32_t ref, uint64_t start, uint64_t end, uint32_t lane = 0) {
  return TrackItem{start, end, ref, lane, TrackItemKind::kKernel};
}
TrackItem Launch(uint32_t ref, uint64_t ts, uint32_t lane = 0) {
  return TrackItem{ts, ts, ref, lane, TrackItemKind::kLaunch};
}

std::vector<std::string> Sweep(std::vector<TrackItem> items, uint64_t* clamped = nullptr,
                               size_t stop_after = SIZE_MAX) {
  std::vector<size_t> offsets = SortTrackItems(items, 1);
  Recorder recorder;
  recorder.stop_after = stop_after;
  uint64_t n = SweepTrack(items.data() + offsets[0], items.data() + offsets[1], recorder);
  if (clamped != nullptr) *clamped = n;
  return recorder.steps;
}

TEST(TrackSweep, NestsByStartThenLongestFirst) {
  // 2 encloses 1 (same start, ends later); 3 starts where 1 ends.
  EXPECT_EQ(Sweep({Slice(1, 10, 20), Slice(2, 10, 50), Slice(3, 20, 30)}),
            (std::vector<std::string>{"B2@10", "B1@10", "E@20", "B3@20", "E@30", "E@50"}));
}

TEST(TrackSweep, InstantsNestInOpenSlices) {
  EXPECT_EQ(Sweep({Launch(7, 15), Slice(1, 10, 20), Launch(8, 20), Launch(9, 5)}),
            (std::vector<std::string>{"I9@5", "B1@10", "I7@15", "E@20", "I8@20"}));
}

TEST(TrackSweep, PartialOverlapIsClampedAndCounted) {
  uint64_t clamped = 0;
  EXPECT_EQ(Sweep({Slice(1, 100, 300), Slice(2, 200, 400)}, &clamped),
            (std::vector<std::string>{"B1@100", "B2!@200", "E@300", "E@300"}));
  EXPECT_EQ(clamped, 1u);
}

TEST(TrackSweep, ZeroLengthSlicesCloseBeforeTheNextItem) {
  EXPECT_EQ(Sweep({Slice(1, 10, 10), Slice(2, 10, 10), Slice(3, 10, 12)}),
            (std::vector<std::string>{"B3@10", "B1@10", "E@10", "B2@10", "E@10", "E@12"}));
}

TEST(TrackSweep, LanesAreGroupedInOrder) {
  std::vector<TrackItem> items = {Slice(1, 50, 60, 2), Slice(2, 10, 20, 0), Slice(3, 5, 6, 2)};
  std::vector<size_t> offsets = SortTrackItems(items, 3);
  EXPECT_EQ(offsets, (std::vector<size_t>{0, 1, 1, 3}));
  EXPECT_EQ(items[1].ref, 3u);
  EXPECT_EQ(items[2].ref, 1u);
}

// Checked before each item and before each final end: nothing follows a stop, not even the
// ends of the slices still open.
TEST(TrackSweep, StopsWhenTheVisitorSaysSo) {
  EXPECT_EQ(Sweep({Slice(1, 10, 20), Slice(2, 30, 40)}, nullptr, 1),
            std::vector<std::string>{"B1@10"});
}

}  // namespace
}  // namespace proton
