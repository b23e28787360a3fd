// Tests of run_names.h: part file names, natural order and short labels.
#include "viewer/common/run_names.h"

#include <gtest/gtest.h>

namespace proton::viewer {
namespace {

TEST(RunNames, PartFileNamesSplitIntoPrefixPhaseAndFormat) {
  const auto part = ParsePartFileName("out/run.rank3.part_12.hatchet_msgpack");
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(part->prefix, "out/run.rank3");
  EXPECT_EQ(part->phase, 12);
  EXPECT_EQ(part->format, "hatchet_msgpack");
  EXPECT_EQ(ParsePartFileName("a.part_0.chrome_trace")->format, "chrome_trace");
  EXPECT_EQ(ParsePartFileName("run.part_007.hatchet")->phase, 7);
}

TEST(RunNames, OtherNamesAreNoParts) {
  for (const char* name : {"run.hatchet", "run.part_.hatchet", "run.part_1x.hatchet",
                           "run.part_1.json", ".part_1.hatchet", "run.part_1", "x.part_1/a.hatchet",
                           "run.part_1234567890123456789.hatchet", "run.done"}) {
    EXPECT_FALSE(ParsePartFileName(name).has_value()) << name;
  }
}

TEST(RunNames, NaturalOrderComparesNumbersByValue) {
  EXPECT_TRUE(NaturalLess("run.rank2", "run.rank10"));
  EXPECT_FALSE(NaturalLess("run.rank10", "run.rank2"));
  EXPECT_TRUE(NaturalLess("a", "b"));
  EXPECT_TRUE(NaturalLess("rank02", "rank3"));
  EXPECT_FALSE(NaturalLess("x", "x"));
}

TEST(RunNames, ShortLabelsDropTheSharedText) {
  EXPECT_EQ(ShortLabels({"out/run.rank0", "out/run.rank1", "out/run.rank12"}),
            (std::vector<std::string>{"rank0", "rank1", "rank12"}));
  EXPECT_EQ(ShortLabels({"out/run"}), (std::vector<std::string>{"run"}));
  EXPECT_EQ(ShortLabels({"run", "run.rank1"}), (std::vector<std::string>{"run", "run.rank1"}));
  EXPECT_EQ(ShortLabels({"a/x", "b/x"}), (std::vector<std::string>{"a/x", "b/x"}));
}

}  // namespace
}  // namespace proton::viewer
