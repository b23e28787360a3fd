// Tests of ASCII case folding.
#include "util/ascii.h"

#include <gtest/gtest.h>

namespace proton {
namespace {

TEST(AsciiLower, FoldsOnlyAsciiLetters) {
  EXPECT_EQ(AsciiLower(""), "");
  EXPECT_EQ(AsciiLower("Hatchet_MsgPack"), "hatchet_msgpack");
  EXPECT_EQ(AsciiLower("AZaz@[`{09"), "azaz@[`{09");
  // Bytes above 127 (here UTF-8 for "Ä" and Latin-1 "Ä") stay as they are in every locale.
  EXPECT_EQ(AsciiLower("\xC3\x84"), "\xC3\x84");
  EXPECT_EQ(AsciiLower("\xC4"), "\xC4");
  EXPECT_EQ(AsciiLower(std::string_view("A\0B", 3)), std::string("a\0b", 3));
}

}  // namespace
}  // namespace proton
