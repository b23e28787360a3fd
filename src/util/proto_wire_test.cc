#include "util/proto_wire.h"

#include <gtest/gtest.h>

#include <vector>

namespace proton::proto {
namespace {

std::vector<Field> AllFields(std::string_view message, bool* ok) {
  Reader r(message);
  std::vector<Field> fields;
  Field f;
  while (r.Next(f)) fields.push_back(f);
  *ok = r.ok();
  return fields;
}

TEST(ProtoWireTest, VarintsMatchTheSpecificationsExamples) {
  std::string out;
  AppendVarint(out, 150);
  EXPECT_EQ(out, std::string("\x96\x01", 2));
  out.clear();
  AppendUint(out, 1, 150);  // the encoding guide's "08 96 01"
  EXPECT_EQ(out, std::string("\x08\x96\x01", 3));
  EXPECT_EQ(VarintSize(0), 1u);
  EXPECT_EQ(VarintSize(127), 1u);
  EXPECT_EQ(VarintSize(128), 2u);
  EXPECT_EQ(VarintSize(UINT64_MAX), 10u);
}

TEST(ProtoWireTest, EveryFieldKindReadsBack) {
  std::string out;
  AppendUint(out, 1, UINT64_MAX);
  AppendInt(out, 2, -5);
  AppendDouble(out, 3, 2.5);
  AppendBytes(out, 4, "name");
  {
    NestedMessage m(out, 5);
    AppendUint(out, 1, 7);
  }
  bool ok = false;
  std::vector<Field> f = AllFields(out, &ok);
  ASSERT_TRUE(ok);
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[0].varint, UINT64_MAX);
  EXPECT_EQ(static_cast<int64_t>(f[1].varint), -5);
  EXPECT_EQ(f[2].as_double(), 2.5);
  EXPECT_EQ(f[3].bytes, "name");
  EXPECT_EQ(f[4].number, 5u);
  std::vector<Field> inner = AllFields(f[4].bytes, &ok);
  ASSERT_TRUE(ok);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_EQ(inner[0].varint, 7u);
}

TEST(ProtoWireTest, ANestedMessageLargerThanItsReservedLengthStillReadsBack) {
  std::string out;
  std::string big(300u << 20, 'x');  // over 2^28 bytes: the length is re-encoded
  {
    NestedMessage m(out, 1);
    AppendBytes(out, 2, big);
  }
  bool ok = false;
  std::vector<Field> f = AllFields(out, &ok);
  ASSERT_TRUE(ok);
  ASSERT_EQ(f.size(), 1u);
  std::vector<Field> inner = AllFields(f[0].bytes, &ok);
  ASSERT_TRUE(ok);
  EXPECT_EQ(inner[0].bytes.size(), big.size());
}

TEST(ProtoWireTest, MalformedMessagesEndTheWalkWithAnError) {
  const std::string cases[] = {
      std::string("\x0a\x05"
                  "abc",
                  5),                                                       // length past the end
      std::string("\x08", 1),                                               // varint cut off
      std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12),  // 11-byte varint
      std::string("\x0b", 1),                                               // wire type 3 (groups)
      std::string("\x00\x01", 2),                                           // field number 0
      std::string("\x09\x01\x02", 3),                                       // fixed64 cut off
  };
  for (const std::string& c : cases) {
    bool ok = true;
    AllFields(c, &ok);
    EXPECT_FALSE(ok) << "case of " << c.size() << " bytes";
  }
}

}  // namespace
}  // namespace proton::proto
