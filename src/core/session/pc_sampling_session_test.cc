// pcsampling sessions through the public API with the fake backend (profiler.md §5.13): PC
// samples land on the node captured at their launch (below it, their source line; below an
// op, their function), in either order with the kernel record, and the written .hatchet has
// the reference's ROOT placeholders.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/testing/fake_backend.h"
#include "core/testing/json_reader.h"
#include "core/testing/test_util.h"
#include "proton/proton.h"

namespace proton {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::set<std::string> RootKeys(const test::Json& doc) {
  std::set<std::string> keys;
  for (const auto& [key, value] : doc.array.at(0)["metrics"].object) keys.insert(key);
  return keys;
}

uint64_t MetricOf(const test::Json* node, const std::string& name) {
  if (node == nullptr) return UINT64_MAX;
  const test::Json* value = (*node)["metrics"].Find(name);
  return value == nullptr ? UINT64_MAX : static_cast<uint64_t>(value->i);
}

PcSample Sample(std::string_view function, std::string_view source, uint64_t samples,
                uint64_t barrier) {
  PcSample s{function, source, {}};
  s.counters[0] = samples;
  s.counters[1] = barrier;
  s.counters[8] = barrier;  // stalled_barrier
  return s;
}

class PcSamplingSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::ResetCore();
    dir_ = test::TempDir();
    FakeBackend::Register();
  }
  void TearDown() override {
    test::ResetCore();
    fs::remove_all(dir_);
  }
  std::string dir_;
};

TEST_F(PcSamplingSessionTest, SamplesLandOnTheLaunchNodeAndRootMatchesTheReference) {
  StartOptions o;
  o.name = dir_ + "/pcs";
  o.backend = "fake";
  o.mode = "pcsampling:interval=1000";
  auto started = Start(o);
  ASSERT_TRUE(started.ok()) << started.status().message();
  int session = started->value();
  FakeBackend* fake = FakeBackend::Current();
  uint64_t scope = NewScopeId();
  EnterScope(scope, "pcs");
  uint64_t first = fake->Launch("kern", 2);
  std::vector<PcSample> samples = {Sample("kern", "", 10, 4),
                                   Sample("kern", "/src/k.py:12@kern", 3, 1)};
  fake->sink()->OnPcSamples(first, samples);
  fake->Queue(FakeRecord{first, "kern", 100, 300});
  // The kernel record first, then the samples: both still reach the node.
  uint64_t second = fake->Launch("kern", 2);
  fake->Queue(FakeRecord{second, "kern", 400, 500});
  fake->CompleteBuffer();
  samples = {Sample("kern", "", 5, 5)};
  fake->sink()->OnPcSamples(second, samples);
  uint64_t op = NewScopeId();
  EnterOp(op, "matmul_op");
  uint64_t third = fake->Launch("kern2", 2);
  ExitOp(op);
  samples = {Sample("kern2", "", 7, 0)};
  fake->sink()->OnPcSamples(third, samples);
  fake->Queue(FakeRecord{third, "kern2", 600, 650});
  ASSERT_TRUE(ExitScope(scope, "pcs").ok());
  ASSERT_TRUE(Finalize(session).ok());

  test::Json doc = test::ParseOrDie(ReadFile(dir_ + "/pcs.hatchet"));
  test::Json ref = test::ParseOrDie(ReadFile(test::RefPath("ref_pcsampling.hatchet")));
  EXPECT_EQ(RootKeys(doc), RootKeys(ref));
  EXPECT_EQ(RootKeys(doc).size(), 22u);
  const test::Json* kern = test::NodeAt(doc, {"pcs", "kern"});
  EXPECT_EQ(MetricOf(kern, "count"), 2u);
  EXPECT_EQ(MetricOf(kern, "num_samples"), 15u);
  EXPECT_EQ(MetricOf(kern, "stalled_barrier"), 9u);
  EXPECT_EQ(MetricOf(kern, "stalled_selected"), 0u);  // all 20 counters are written
  const test::Json* line = test::NodeAt(doc, {"pcs", "kern", "/src/k.py:12@kern"});
  EXPECT_EQ(MetricOf(line, "num_samples"), 3u);
  EXPECT_EQ(MetricOf(line, "count"), UINT64_MAX);  // no kernel metrics on a line node
  // Below an op (the reference's launch-hook case) the function is a child of the op.
  EXPECT_EQ(MetricOf(test::NodeAt(doc, {"pcs", "matmul_op"}), "count"), 1u);
  EXPECT_EQ(MetricOf(test::NodeAt(doc, {"pcs", "matmul_op", "kern2"}), "num_samples"), 7u);
}

TEST_F(PcSamplingSessionTest, OtherModesHaveNoPcPlaceholders) {
  StartOptions o;
  o.name = dir_ + "/plain";
  o.backend = "fake";
  int session = Start(o)->value();
  FakeBackend* fake = FakeBackend::Current();
  uint64_t id = fake->Launch("kern");
  fake->Queue(FakeRecord{id, "kern", 100, 300});
  ASSERT_TRUE(Finalize(session).ok());
  test::Json doc = test::ParseOrDie(ReadFile(dir_ + "/plain.hatchet"));
  EXPECT_EQ(RootKeys(doc), (std::set<std::string>{"count", "time (ns)"}));
}

}  // namespace
}  // namespace proton
