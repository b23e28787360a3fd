// Tests of the .hatchet_msgpack writer: the formats.md §3.4 example byte for byte, key orders,
// smallest encodings.
#include "core/dump/msgpack_writer.h"

#include <gtest/gtest.h>

#include "core/testing/fake_backend.h"
#include "core/testing/json_reader.h"
#include "core/testing/test_util.h"

namespace proton {
namespace {

std::string Hex(const std::string& bytes) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

// formats.md §3.4: ROOT -> add_1048576 (2 launches, 5214 ns, bytes, flops32) on one H200.
constexpr const char* kExample =
    "9283a56672616d6582a46e616d65a4524f4f54a474797065a866756e6374696f6ea76d65747269637382a974"
    "696d6520286e732900a5636f756e7400a86368696c6472656e9183a56672616d6582a46e616d65ab6164645f"
    "31303438353736a474797065a866756e6374696f6ea76d65747269637386a974696d6520286e7329cd145ea5"
    "636f756e7402a96465766963655f6964a130ab6465766963655f74797065a443554441a56279746573ce0180"
    "0000a7666c6f70733332cb4140000000000000a86368696c6472656e9081a44355444181a13085aa636c6f63"
    "6b5f72617465ce001e3660b16d656d6f72795f636c6f636b5f72617465ce0030d7e8a96275735f7769647468"
    "cd1780a461726368a23930a76e756d5f736d73cc84";

void BuildExample(TreeData* data) {
  NodeRef leaf = data->Child(data->Root(), "add_1048576");
  KernelRecord r;
  r.start_ns = 0;
  r.end_ns = 5000;
  data->AddKernel(leaf, r, false);
  r.end_ns = 214;
  data->AddKernel(leaf, r, false);
  ASSERT_TRUE(
      data->AddMetrics(leaf, {{"bytes", int64_t{25165824}}, {"flops32", int64_t{2097152}}}).ok());
}

TEST(MsgpackWriter, FormatsExampleBytes) {
  TreeData data;
  BuildExample(&data);
  DeviceTable devices{{0, FakeBackend::H200()}};
  WriteOptions options;
  options.flexible_root_placeholders = false;  // the example is in the 3.7 root style
  std::string out;
  data.WithLock([&] { WriteHatchetMsgpack(data, devices, options, out); });
  EXPECT_EQ(out.size(), 285u);
  EXPECT_EQ(Hex(out), kExample);
}

TEST(MsgpackWriter, OursAddsFlexiblePlaceholdersAfterCountInNameOrder) {
  TreeData data;
  BuildExample(&data);
  DeviceTable devices{{0, FakeBackend::H200()}};
  std::string out;
  data.WithLock([&] { WriteHatchetMsgpack(data, devices, WriteOptions{}, out); });
  // ROOT metrics: map of 4: time (ns) 0, count 0, bytes 0, flops32 0.
  std::string expect_root =
      "a76d657472696373"
      "84"
      "a974696d6520286e732900"
      "a5636f756e7400"
      "a56279746573"
      "00"
      "a7666c6f70733332"
      "00";
  EXPECT_NE(Hex(out).find(expect_root), std::string::npos) << Hex(out);
}

TEST(MsgpackWriter, SmallestEncodings) {
  auto enc = [](auto fn) {
    std::string s;
    fn(s);
    return Hex(s);
  };
  EXPECT_EQ(enc([](std::string& s) { MsgpackUint(s, 127); }), "7f");
  EXPECT_EQ(enc([](std::string& s) { MsgpackUint(s, 128); }), "cc80");
  EXPECT_EQ(enc([](std::string& s) { MsgpackUint(s, 65535); }), "cdffff");
  EXPECT_EQ(enc([](std::string& s) { MsgpackUint(s, 65536); }), "ce00010000");
  EXPECT_EQ(enc([](std::string& s) { MsgpackUint(s, 1ull << 32); }), "cf0000000100000000");
  EXPECT_EQ(enc([](std::string& s) { MsgpackInt(s, -1); }), "ff");
  EXPECT_EQ(enc([](std::string& s) { MsgpackInt(s, -32); }), "e0");
  EXPECT_EQ(enc([](std::string& s) { MsgpackInt(s, -33); }), "d0df");
  EXPECT_EQ(enc([](std::string& s) { MsgpackInt(s, -129); }), "d1ff7f");
  EXPECT_EQ(enc([](std::string& s) { MsgpackInt(s, -40000); }), "d2ffff63c0");
  EXPECT_EQ(enc([](std::string& s) { MsgpackInt(s, INT64_MIN); }), "d38000000000000000");
  EXPECT_EQ(enc([](std::string& s) { MsgpackDouble(s, 1.0); }), "cb3ff0000000000000");
  EXPECT_EQ(enc([](std::string& s) { MsgpackString(s, std::string(32, 'a')); }).substr(0, 4),
            "d920");
  EXPECT_EQ(enc([](std::string& s) { MsgpackString(s, std::string(256, 'a')); }).substr(0, 6),
            "da0100");
  EXPECT_EQ(enc([](std::string& s) { MsgpackArrayHeader(s, 16); }), "dc0010");
  EXPECT_EQ(enc([](std::string& s) { MsgpackMapHeader(s, 15); }), "8f");
  EXPECT_EQ(enc([](std::string& s) { MsgpackMapHeader(s, 70000); }), "df00011170");
}

TEST(MsgpackWriter, VectorsAndNegativeValues) {
  TreeData data;
  NodeRef n = data.Child(data.Root(), "s");
  ASSERT_TRUE(data.AddMetrics(n, {{"v", std::vector<int64_t>{1, -1}},
                                  {"w", std::vector<double>{0.5}},
                                  {"neg(exc)", int64_t{-5}}})
                  .ok());
  std::string out;
  data.WithLock([&] { WriteHatchetMsgpack(data, {}, WriteOptions{}, out); });
  std::string hex = Hex(out);
  EXPECT_NE(hex.find("a36e6567"
                     "fb"),
            std::string::npos);  // neg: -5 fixint
  EXPECT_NE(hex.find("a176"
                     "92"
                     "01"
                     "ff"),
            std::string::npos);  // v: [1, -1]
  EXPECT_NE(hex.find("a177"
                     "91"
                     "cb3fe0000000000000"),
            std::string::npos);                 // w: [0.5]
  EXPECT_EQ(hex.substr(hex.size() - 2), "80");  // empty device table
}

}  // namespace
}  // namespace proton
