// Tests of the .hatchet writer: every reference profile re-serialised byte for byte, the
// empty profile, the ROOT placeholder rule, deep trees.
#include "core/dump/hatchet_writer.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/testing/json_reader.h"
#include "core/testing/test_util.h"

namespace proton {
namespace {

using test::BuildTree;
using test::ParseOrDie;
using test::ReadFile;

std::string Write(TreeData& data, const DeviceTable& devices) {
  std::string out;
  data.WithLock([&] { WriteHatchet(data, devices, WriteOptions{}, out); });
  return out;
}

TEST(HatchetWriter, ReserialisesEveryReferenceProfileByteForByte) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(PROTON_REFDATA_DIR)) {
    if (entry.path().extension() != ".hatchet") continue;
    SCOPED_TRACE(entry.path().string());
    std::string text = ReadFile(entry.path().string());
    test::Json doc = ParseOrDie(text);
    TreeData data;
    DeviceTable devices;
    BuildTree(doc, &data, &devices);
    EXPECT_EQ(Write(data, devices), text);
    ++files;
  }
  EXPECT_GE(files, 13);
}

TEST(HatchetWriter, EmptyProfile) {
  TreeData data;
  EXPECT_EQ(Write(data, {}),
            "\n[\n    {\n        \"children\": [],\n        \"frame\": {\n            \"name\": "
            "\"ROOT\",\n            \"type\": \"function\"\n        },\n        \"metrics\": {}\n"
            "    },\n    {}\n]\n");
}

TEST(HatchetWriter, RootPlaceholdersFollowTriton36) {
  TreeData data;
  NodeRef s = data.Child(data.Root(), "custom");
  ASSERT_TRUE(data.AddMetrics(s, {{"flops16", 1000.0},
                                  {"my_metric", int64_t{3}},
                                  {"ex (exc)", int64_t{7}},
                                  {"p(pty)", int64_t{1}},
                                  {"cpu_time (ns)(exc)", int64_t{5}}})
                  .ok());
  test::Json doc = ParseOrDie(Write(data, {}));
  const test::Json& root = doc.array[0]["metrics"];
  std::vector<std::string> keys;
  for (const auto& [k, v] : root.object) keys.push_back(k);
  // No kernel: no count/time; inclusive flexible names only.
  EXPECT_EQ(keys, (std::vector<std::string>{"flops16", "my_metric"}));
  const test::Json& custom = doc.array[0]["children"].array[0]["metrics"];
  EXPECT_EQ(custom["ex"].i, 7);
  EXPECT_EQ(custom["cpu_time (ns)"].i, 5);
  EXPECT_EQ(custom["p"].i, 1);
  EXPECT_EQ(custom["flops16"].type, test::Json::Type::kDouble);
}

TEST(HatchetWriter, ChildrenInByteOrderAndEscapes) {
  TreeData data;
  data.Child(data.Root(), "b");
  data.Child(data.Root(), "B");
  data.Child(data.Root(), "a\"\n\x01");
  std::string out = Write(data, {});
  size_t upper = out.find("\"B\"");
  size_t lower_a = out.find("\"a\\\"\\n\\u0001\"");
  size_t lower_b = out.find("\"b\"");
  ASSERT_NE(lower_a, std::string::npos);
  EXPECT_LT(upper, lower_a);
  EXPECT_LT(lower_a, lower_b);
}

TEST(HatchetWriter, VectorMetricsAreIndentedArrays) {
  TreeData data;
  NodeRef s = data.Child(data.Root(), "s");
  ASSERT_TRUE(data.AddMetrics(s, {{"v", std::vector<int64_t>{1, 2}}}).ok());
  std::string out = Write(data, {});
  EXPECT_NE(out.find("\"v\": [\n" + std::string(24, ' ') + "1,\n" + std::string(24, ' ') + "2\n" +
                     std::string(20, ' ') + "]"),
            std::string::npos)
      << out;
}

TEST(HatchetWriter, DeepTreeWithoutRecursion) {
  TreeData data;
  NodeRef n = data.Root();
  for (int i = 0; i < 100000; ++i) n = data.Child(n, "d");
  std::string out;
  data.WithLock([&] { WriteHatchet(data, {}, WriteOptions{}, out, /*pretty=*/false); });
  EXPECT_EQ(out.substr(0, 14), "[{\"children\":[");
  EXPECT_EQ(out.substr(out.size() - 5), "},{}]");
}

// The pretty layout is quadratic in depth (4 spaces per level and line), so a deep tree's text
// must reach the sink in bounded chunks, whatever the depth: descent and indentation included.
TEST(HatchetWriter, DeepPrettyTreeStreamsInBoundedChunks) {
  TreeData data;
  NodeRef n = data.Root();
  constexpr int kDepth = 3000;
  for (int i = 0; i < kDepth; ++i) n = data.Child(n, "d");
  size_t total = 0, largest = 0, opens = 0;
  ChunkSink sink = [&](std::string_view chunk) {
    total += chunk.size();
    largest = std::max(largest, chunk.size());
    for (size_t p = chunk.find("\"children\""); p != std::string_view::npos;
         p = chunk.find("\"children\"", p + 1)) {
      ++opens;
    }
    return true;
  };
  WriteOptions options;
  options.chunk_sink = &sink;
  std::string out;
  data.WithLock([&] { WriteHatchet(data, {}, options, out); });
  EXPECT_GT(total, size_t{8} * kDepth * kDepth / 2);  // the file is large...
  EXPECT_LE(largest, kChunkBytes + (1 << 16));        // ...the buffer is not
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(opens, size_t{kDepth} + 1);
}

}  // namespace
}  // namespace proton
