// Tests for --export OUT.perfetto_trace (viewer.md §11.17, formats.md §9): the merged file,
// decoded on its own (testing/merged_trace_checker.h), is one process per input named by its
// rank, breaks no rule of a valid trace, keeps every input's kernels, and puts the inputs on
// one time line.
#include "viewer/merge/merge_traces.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "viewer/merge/rank_label.h"
#include "viewer/traces/testing/json_trace_builder.h"
#include "viewer/traces/testing/merged_trace_checker.h"
#include "viewer/traces/testing/perfetto_builder.h"

namespace proton::viewer {
namespace {

using traces::testing::CheckMergedTrace;
using traces::testing::JsonTraceBuilder;
using traces::testing::MergedTraceCheck;
using traces::testing::PerfettoBuilder;
namespace pf = traces::pf;

constexpr int64_t kBase = 1700000000000000000;

class MergeTracesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/proton_merge_traces_XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  std::string Write(const std::string& name, const std::string& bytes) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Merges `files` into out.perfetto_trace; the warnings land in warnings_.
  Status Merge(const std::vector<std::string>& files) {
    warnings_.clear();
    return MergeTraces(files, Out(), [&](std::string_view w) { warnings_.emplace_back(w); });
  }
  std::string Out() const { return dir_ + "/out.perfetto_trace"; }

  // One rank of a job: a CPU thread launching two kernels on stream 7, with flows, and a
  // third kernel on stream 9; `shift_us` moves everything.
  static std::string Rank(std::optional<int64_t> base, double shift_us = 0) {
    JsonTraceBuilder b;
    b.Lane(0, "CPU Thread 100");
    b.Lane(1, "GPU Stream 7");
    b.Lane(2, "GPU Stream 9");
    b.Kernel(1, shift_us + 10, 5, "matmul", {"step"});
    b.Kernel(1, shift_us + 20, 5, "add");
    b.Kernel(2, shift_us + 12, 30, "nccl_allreduce");
    b.Scope(0, shift_us + 0, 40, "step");
    b.Flow('s', 0, shift_us + 2, 1);
    b.Flow('f', 1, shift_us + 10, 1);
    b.Flow('s', 0, shift_us + 3, 2);
    b.Flow('f', 1, shift_us + 20, 2);
    return b.Build(base);
  }

  std::string dir_;
  std::vector<std::string> warnings_;
};

void ExpectValid(const MergedTraceCheck& check) {
  for (const std::string& p : check.problems) ADD_FAILURE() << p;
}

TEST_F(MergeTracesTest, OneProcessPerInputNamedByRank) {
  PerfettoBuilder p;
  p.ClockSnapshot(kBase, 1);
  p.SequenceStart(true);
  p.ProcessTrack(1, 4321, "Trace");
  p.LaneTrack(2, 1, "CPU Thread 5");
  p.LaneTrack(3, 1, "GPU Stream 7");
  p.Event(kBase + 1000, pf::event::kTypeInstant, 2, "matmul", "launch", {}, {1});
  p.Slice(kBase + 2000, kBase + 5000, 3, "matmul", "kernel",
          {{"call_stack_0", true, "ROOT"}, {"call_stack_1", true, "matmul"}}, {}, {1});
  const std::vector<std::string> files = {Write("run.rank0.chrome_trace", Rank(kBase)),
                                          Write("run.rank1.chrome_trace", Rank(kBase)),
                                          Write("run.rank2.perfetto_trace", p.bytes())};
  ASSERT_TRUE(Merge(files).ok());
  EXPECT_TRUE(warnings_.empty());
  const MergedTraceCheck check = CheckMergedTrace(Read(Out()));
  ExpectValid(check);
  std::map<std::string, std::string> names;  // process name -> cmdline
  for (const auto& [uuid, process] : check.processes) names[process.name] = process.cmdline;
  EXPECT_EQ(names, (std::map<std::string, std::string>{
                       {"rank 0", files[0]}, {"rank 1", files[1]}, {"rank 2", files[2]}}));
  const auto kernels = check.Counts("kernel");
  for (const std::string rank : {"rank 0", "rank 1"}) {
    EXPECT_EQ(kernels.at({rank, "matmul"}), 1);
    EXPECT_EQ(kernels.at({rank, "add"}), 1);
    EXPECT_EQ(kernels.at({rank, "nccl_allreduce"}), 1);
  }
  EXPECT_EQ(kernels.at({"rank 2", "matmul"}), 1);
  EXPECT_EQ(kernels.size(), 7u);
  // Two flows per JSON rank and one in the Perfetto input, each with both ends.
  size_t flows = 0;
  for (const auto& s : check.slices) flows += s.flows_out.size();
  EXPECT_EQ(flows, 5u);
}

TEST_F(MergeTracesTest, KernelsKeepTheirCallStacksAndLaunchesTheirNames) {
  ASSERT_TRUE(Merge({Write("a.chrome_trace", Rank(kBase))}).ok());
  const MergedTraceCheck check = CheckMergedTrace(Read(Out()));
  ExpectValid(check);
  const auto matmul = check.Named("input 0", "matmul");
  ASSERT_EQ(matmul.size(), 2u);  // the kernel, and its launch instant named after it
  const auto* kernel = matmul[0]->instant ? matmul[1] : matmul[0];
  const auto* launch = matmul[0]->instant ? matmul[0] : matmul[1];
  // As the profiler writes kernels (formats.md §7.5): the frames between ROOT and the kernel.
  EXPECT_EQ(kernel->annotations.at("call_stack_0"), "step");
  EXPECT_EQ(kernel->annotations.count("call_stack_1"), 0u);
  EXPECT_EQ(kernel->end - kernel->start, 5000u);
  EXPECT_EQ(launch->category, "launch");
  ASSERT_EQ(launch->flows_out.size(), 1u);
  EXPECT_EQ(kernel->flows_in, launch->flows_out);
  EXPECT_EQ(kernel->start - launch->start, 8000u);  // launch latency: 10 us - 2 us
}

// Two ranks whose bases differ by 20 us and whose all-reduces (30 us each) overlap in wall
// time: in the merge one starts exactly 20 us after the other and they overlap by 10 us.
TEST_F(MergeTracesTest, InputsLineUpOnTheAbsoluteClock) {
  ASSERT_TRUE(Merge({Write("r.rank0.chrome_trace", Rank(kBase)),
                     Write("r.rank1.chrome_trace", Rank(kBase + 20000))})
                  .ok());
  const MergedTraceCheck check = CheckMergedTrace(Read(Out()));
  ExpectValid(check);
  const auto a = check.Named("rank 0", "nccl_allreduce");
  const auto b = check.Named("rank 1", "nccl_allreduce");
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0]->start, static_cast<uint64_t>(kBase + 12000));
  EXPECT_EQ(b[0]->start - a[0]->start, 20000u);
  EXPECT_EQ(a[0]->end - b[0]->start, 10000u);
}

TEST_F(MergeTracesTest, ARelativeInputWarnsAndStartsAtItsZero) {
  const std::string relative = Write("old.chrome_trace", Rank(std::nullopt, 1));
  ASSERT_TRUE(Merge({Write("r.rank0.chrome_trace", Rank(kBase)), relative}).ok());
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0], "'" + relative +
                              "' has no absolute time (no baseTimeNanoseconds, or not on the "
                              "REALTIME clock): it is placed at its own zero");
  const MergedTraceCheck check = CheckMergedTrace(Read(Out()));
  ExpectValid(check);
  const auto step = check.Named("input 1", "step");
  ASSERT_EQ(step.size(), 1u);
  EXPECT_EQ(step[0]->start, 1000u);
}

// Python's json.dumps keeps insertion order: a baseTimeNanoseconds after traceEvents still
// puts the file on the absolute clock, since the merge holds its events until it is read.
TEST_F(MergeTracesTest, ABaseTimeAfterTheEventsStillCounts) {
  std::string late = Rank(std::nullopt);
  late.replace(late.rfind('}'), 1, ",\"baseTimeNanoseconds\":" + std::to_string(kBase) + "}");
  ASSERT_TRUE(Merge({Write("late.chrome_trace", late)}).ok());
  EXPECT_TRUE(warnings_.empty());
  const MergedTraceCheck check = CheckMergedTrace(Read(Out()));
  ExpectValid(check);
  EXPECT_EQ(check.Named("input 0", "step")[0]->start, static_cast<uint64_t>(kBase));
}

// Kernels of one stream that overlap (programmatic dependent launch) and a flow whose other
// end is missing: the output still nests, and keeps only whole flows.
TEST_F(MergeTracesTest, OverlapsAreClampedAndHalfFlowsLeftOut) {
  JsonTraceBuilder b;
  b.Lane(1, "GPU Stream 7");
  b.Kernel(1, 0, 10, "first");
  b.Kernel(1, 5, 10, "second");  // ends 5 us after "first"
  b.Kernel(1, 5, 2, "third");    // inside both
  b.Flow('f', 1, 5, 77);         // no start
  ASSERT_TRUE(Merge({Write("pdl.chrome_trace", b.Build(kBase))}).ok());
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("1 flows without exactly one start and one end"), std::string::npos);
  const MergedTraceCheck check = CheckMergedTrace(Read(Out()));
  ExpectValid(check);
  const auto second = check.Named("input 0", "second");
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0]->end, static_cast<uint64_t>(kBase + 10000));  // clamped to "first"
  EXPECT_EQ(second[0]->annotations.at("original_dur_ns"), "10000");
  EXPECT_EQ(check.Named("input 0", "third")[0]->end, static_cast<uint64_t>(kBase + 7000));
}

TEST_F(MergeTracesTest, FlowIdsAreUniqueAcrossInputs) {
  ASSERT_TRUE(Merge({Write("a.rank0.chrome_trace", Rank(kBase)),
                     Write("a.rank1.chrome_trace", Rank(kBase))})
                  .ok());
  const MergedTraceCheck check = CheckMergedTrace(Read(Out()));
  ExpectValid(check);  // the checker fails a flow id with two starts
  std::set<uint64_t> ids;
  for (const auto& s : check.slices) ids.insert(s.flows_out.begin(), s.flows_out.end());
  EXPECT_EQ(ids.size(), 4u);
}

TEST_F(MergeTracesTest, AnEmptyTraceIsAnEmptyProcess) {
  ASSERT_TRUE(Merge({Write("empty.chrome_trace", "")}).ok());
  const MergedTraceCheck check = CheckMergedTrace(Read(Out()));
  ExpectValid(check);
  EXPECT_EQ(check.processes.size(), 1u);
  EXPECT_TRUE(check.slices.empty());
}

TEST_F(MergeTracesTest, TreeProfilesAndBadInputsAreRefusedAndOutLeftAlone) {
  const std::string tree = Write("p.hatchet", R"([{"children":[],"frame":{"name":"ROOT"},)"
                                              R"("metrics":{}},{}])");
  const std::string msgpack = Write("p.hatchet_msgpack", std::string("\x92\x80\x80", 3));
  const std::string good = Write("g.chrome_trace", Rank(kBase));
  const std::string cut = Write("cut.chrome_trace", Rank(kBase).substr(0, 300));
  Write("out.perfetto_trace", "old");
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{good, tree}, "'" + tree + "' is a Proton tree profile, not a trace"},
      {{msgpack}, "'" + msgpack + "' is a Proton tree profile, not a trace"},
      {{good, dir_ + "/missing"}, "cannot open '" + dir_ + "/missing': No such file or directory"},
      {{good, cut}, "cannot read '" + cut + "': the trace ends early"},
  };
  for (const auto& [files, message] : cases) {
    const Status s = Merge(files);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message().substr(0, message.size()), message) << s.message();
    EXPECT_EQ(Read(Out()), "old");
  }
}

TEST(RankLabel, FromTheProfilersFileNames) {
  EXPECT_EQ(RankLabel("out/run.rank3.chrome_trace", 0), "rank 3");
  EXPECT_EQ(RankLabel("run.rank12.part_4.perfetto_trace", 1), "rank 12");
  EXPECT_EQ(RankLabel("a.rank1/run.chrome_trace", 2), "input 2");
  EXPECT_EQ(RankLabel("run.ranked.chrome_trace", 5), "input 5");
  EXPECT_EQ(RankLabel("run.rank7", 0), "rank 7");
}

}  // namespace
}  // namespace proton::viewer
