// Tests of the JSON string escaper (formats.md §2.1).
#include "util/json_escape.h"

#include <gtest/gtest.h>

namespace proton {
namespace {

TEST(JsonEscape, StringEscapes) {
  std::string s;
  AppendJsonString(s, std::string("a\"b\\c\b\f\n\r\t\x01\x1f\x7f\xc3\xa9", 15));
  EXPECT_EQ(s, "\"a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\xc3\xa9\"");
}

TEST(JsonEscape, NulAndPlainText) {
  std::string s;
  AppendJsonString(s, std::string("x\0y", 3));
  AppendJsonString(s, "");
  AppendJsonString(s, "plain");
  EXPECT_EQ(s, "\"x\\u0000y\"\"\"\"plain\"");
}

}  // namespace
}  // namespace proton
