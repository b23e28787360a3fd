// Tests of PrintableText: what a one-line message may show of a user's path or name.
#include "util/printable.h"

#include <gtest/gtest.h>

namespace proton {
namespace {

TEST(PrintableText, KeepsPrintableAsciiAndUtf8) {
  EXPECT_EQ(PrintableText("out/run 1.hatchet"), "out/run 1.hatchet");
  EXPECT_EQ(PrintableText("résumé/数据.py"), "résumé/数据.py");
  EXPECT_EQ(PrintableText(""), "");
}

TEST(PrintableText, EscapesControlCharacters) {
  EXPECT_EQ(PrintableText("a\nb.py"), "a\\nb.py");
  EXPECT_EQ(PrintableText("a\r\tb"), "a\\r\\tb");
  EXPECT_EQ(PrintableText("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(PrintableText(std::string_view("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(PrintableText("\x7f"), "\\x7f");
  EXPECT_EQ(PrintableText("\xc2\x85"), "\\xc2\\x85");  // U+0085, a C1 control
}

TEST(PrintableText, EscapesInvalidUtf8) {
  EXPECT_EQ(PrintableText("no\xffpe.py"), "no\\xffpe.py");
  EXPECT_EQ(PrintableText("\xe6\x95"), "\\xe6\\x95");                 // truncated sequence
  EXPECT_EQ(PrintableText("\xc0\xaf"), "\\xc0\\xaf");                 // overlong '/'
  EXPECT_EQ(PrintableText("\xed\xa0\x80"), "\\xed\\xa0\\x80");        // a surrogate
  EXPECT_EQ(PrintableText("\xe6\x95\xb0\xff"), "\xe6\x95\xb0\\xff");  // valid, then not
}

}  // namespace
}  // namespace proton
