// The trace reports (viewer.md §11.18) on tiny traces whose answers are known: a 5 ms idle
// gap, launches 3, 5 and 7 us before their kernels, an NCCL kernel half overlapped by compute;
// in both formats, through the command with --export, and on a real H200 trace.
#include "viewer/ops/trace_report.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "viewer/cli/viewer_command.h"
#include "viewer/outputs/trace_report_text.h"
#include "viewer/traces/perfetto_fields.h"
#include "viewer/traces/testing/perfetto_builder.h"

namespace proton::viewer {
namespace {

namespace pf = traces::pf;

std::string TempPath(const std::string& name) { return ::testing::TempDir() + name; }

std::string WriteFile(const std::string& name, const std::string& bytes) {
  std::string path = TempPath(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// GPU 0 Stream 7: A [100, 110] us, B [5110, 5120], C [5130, 5140], launched 3, 5 and 7 us
// before; Stream 8: ncclDevKernel [200, 300]; Stream 9: gemm [150, 250] (half of the NCCL).
std::string ChromeTrace() {
  std::string t = R"({"baseTimeNanoseconds":1700000000000000000,"traceEvents":[)";
  for (const auto& [tid, name] : {std::pair{1, "GPU 0 Stream 7"},
                                  {2, "GPU 0 Stream 8"},
                                  {3, "GPU 0 Stream 9"},
                                  {0, "CPU Thread 5"}}) {
    t += R"({"args":{"name":")" + std::string(name) +
         R"("},"name":"thread_name","ph":"M","pid":0,"tid":)" + std::to_string(tid) + "},";
  }
  const auto kernel = [&](const char* name, int tid, int ts, int dur) {
    t += R"({"cat":"kernel","name":")" + std::string(name) + R"(","ph":"X","pid":0,"tid":)" +
         std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
         std::to_string(dur) + "},";
  };
  const auto flow = [&](int id, int launch, int start) {
    t += R"({"cat":"flow","id":)" + std::to_string(id) +
         R"(,"name":"launch->kernel","ph":"s","pid":0,"tid":0,"ts":)" + std::to_string(launch) +
         "},";
    t += R"({"bp":"e","cat":"flow","id":)" + std::to_string(id) +
         R"(,"name":"launch->kernel","ph":"f","pid":0,"tid":1,"ts":)" + std::to_string(start) +
         "},";
  };
  kernel("A", 1, 100, 10);
  kernel("B", 1, 5110, 10);
  kernel("C", 1, 5130, 10);
  kernel("ncclDevKernel_AllReduce", 2, 200, 100);
  kernel("gemm", 3, 150, 100);
  flow(1, 97, 100);
  flow(2, 5105, 5110);
  flow(3, 5123, 5130);
  t.back() = ']';
  return t + "}";
}

// The same trace as Perfetto protobuf: launch instants and kernel slices joined by flows.
std::string PerfettoTrace() {
  traces::testing::PerfettoBuilder b;
  constexpr uint64_t kT0 = 1700000000000000000;
  constexpr uint64_t kUs = 1000;
  b.SequenceStart(/*realtime=*/true);
  b.ProcessTrack(1, 1234, "Trace");
  b.LaneTrack(2, 1, "CPU Thread 5");
  b.LaneTrack(3, 1, "GPU 0 Stream 7");
  b.LaneTrack(4, 1, "GPU 0 Stream 8");
  b.LaneTrack(5, 1, "GPU 0 Stream 9");
  const auto launched = [&](const char* name, uint64_t launch, uint64_t start, uint64_t end,
                            uint64_t flow) {
    b.Event(kT0 + launch * kUs, pf::event::kTypeInstant, 2, name, "launch", {}, {flow});
    b.Slice(kT0 + start * kUs, kT0 + end * kUs, 3, name, "kernel", {}, {}, {flow});
  };
  launched("A", 97, 100, 110, 1);
  launched("B", 5105, 5110, 5120, 2);
  launched("C", 5123, 5130, 5140, 3);
  b.Slice(kT0 + 200 * kUs, kT0 + 300 * kUs, 4, "ncclDevKernel_AllReduce", "kernel");
  b.Slice(kT0 + 150 * kUs, kT0 + 250 * kUs, 5, "gemm", "kernel");
  return b.bytes();
}

void ExpectKnownAnswers(const TraceReport& r) {
  EXPECT_EQ(r.kernels, 5u);
  ASSERT_EQ(r.streams.size(), 3u);
  const StreamStats& s = r.streams[0];
  EXPECT_EQ(s.name, "GPU 0 Stream 7");
  EXPECT_EQ(s.device, 0);
  EXPECT_EQ(s.busy_ns, 30'000);
  EXPECT_EQ(s.idle_ns, 5'010'000);
  EXPECT_EQ(s.gaps[3].count, 1u);  // 1-10 ms
  EXPECT_EQ(s.gaps[3].total_ns, 5'000'000);
  EXPECT_EQ(s.gaps[1].count, 1u);  // 10-100 us: exactly 10 us falls in it
  EXPECT_EQ(s.gaps[1].total_ns, 10'000);
  ASSERT_EQ(r.largest_gaps.size(), 2u);
  EXPECT_EQ(r.largest_gaps[0].length_ns, 5'000'000);
  EXPECT_EQ(r.largest_gaps[0].at_ns, 10'000);  // A ends 10 us after the first kernel starts
  EXPECT_EQ(r.largest_gaps[0].before, "A");
  EXPECT_EQ(r.largest_gaps[0].after, "B");
  ASSERT_EQ(r.overlap.size(), 1u);
  EXPECT_EQ(r.overlap[0].device, 0);
  EXPECT_EQ(r.overlap[0].comm_kernels, 1u);
  EXPECT_EQ(r.overlap[0].comm_ns, 100'000);
  EXPECT_EQ(r.overlap[0].overlap_ns, 50'000);
  EXPECT_EQ(r.launch.count, 3u);
  EXPECT_EQ(r.launch.p50_ns, 5'000);
  EXPECT_EQ(r.launch.p90_ns, 7'000);
  EXPECT_EQ(r.launch.p99_ns, 7'000);
  EXPECT_EQ(r.launch.max_ns, 7'000);
  ASSERT_EQ(r.worst_launch.size(), 3u);
  EXPECT_EQ(r.worst_launch[0].name, "C");
  ASSERT_EQ(r.kernel_durations.size(), 5u);
  EXPECT_EQ(r.kernel_durations[0].stats.total_ns, 100'000);
}

TEST(TraceReport, ChromeTraceKnownAnswers) {
  Result<TraceReport> r = ReportTraceFile(WriteFile("known.chrome_trace", ChromeTrace()));
  ASSERT_TRUE(r.ok()) << r.status().message();
  ExpectKnownAnswers(*r);
}

TEST(TraceReport, PerfettoTraceKnownAnswers) {
  Result<TraceReport> r = ReportTraceFile(WriteFile("known.perfetto_trace", PerfettoTrace()));
  ASSERT_TRUE(r.ok()) << r.status().message();
  ExpectKnownAnswers(*r);
}

TEST(TraceReport, NearestRankPercentiles) {
  std::vector<int64_t> v;
  for (int64_t i = 100; i >= 1; --i) v.push_back(i);  // 1..100, unsorted
  const Percentiles p = TakePercentiles(v);
  EXPECT_EQ(p.count, 100u);
  EXPECT_EQ(p.total_ns, 5050);
  EXPECT_EQ(p.p50_ns, 50);
  EXPECT_EQ(p.p90_ns, 90);
  EXPECT_EQ(p.p99_ns, 99);
  EXPECT_EQ(p.max_ns, 100);
  std::vector<int64_t> one = {7};
  EXPECT_EQ(TakePercentiles(one).p50_ns, 7);
  std::vector<int64_t> none;
  EXPECT_EQ(TakePercentiles(none).count, 0u);
}

TEST(TraceReport, CommunicationKernelNames) {
  EXPECT_TRUE(IsCommunicationKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
  EXPECT_TRUE(IsCommunicationKernel("ncclKernel_AllGather"));
  EXPECT_TRUE(IsCommunicationKernel("void NCCL_foo"));
  EXPECT_FALSE(IsCommunicationKernel("gemm"));
  EXPECT_FALSE(IsCommunicationKernel("ncl"));
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Through the command: the text on standard output and the CSV rows.
TEST(TraceReport, CommandPrintsAndExports) {
  const std::string trace = WriteFile("cmd.chrome_trace", ChromeTrace());
  const std::string out = TempPath("report.out");
  const std::string csv = TempPath("report.csv");
  const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  Result<int> r = ViewerMain({"--trace-report", "--export", csv, trace}, fd, false);
  ::close(fd);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, 0);
  const std::string text = ReadAll(out);
  EXPECT_NE(text.find("5.000 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("50.000 us overlapped (50.0%)"), std::string::npos) << text;
  const std::string table = ReadAll(csv);
  EXPECT_EQ(table.rfind("file,section,key,count,total_ns,other_ns,pct,", 0), 0u) << table;
  EXPECT_NE(table.find(",launch,(all),3,15000,,,5000,7000,7000,7000,,"), std::string::npos)
      << table;
  EXPECT_NE(table.find(",largest_gap,GPU 0 Stream 7,,5e+06,10000,,,,,,A,B"), std::string::npos)
      << table;
}

// --html: the page is written, with one strip per stream, the 5 ms gap highlighted with its
// tooltip, and the tables' numbers as printed.
TEST(TraceReport, CommandWritesHtmlPage) {
  const std::string trace = WriteFile("page.chrome_trace", ChromeTrace());
  const std::string page = TempPath("report.html");
  Result<int> r = ViewerMain({"--trace-report", "--html", page, trace}, 1, false);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const std::string html = ReadAll(page);
  size_t strips = 0;
  for (size_t at = html.find("<svg class=\"strip\""); at != std::string::npos;
       at = html.find("<svg class=\"strip\"", at + 1)) {
    ++strips;
  }
  EXPECT_EQ(strips, 3u);
  EXPECT_NE(html.find("<rect class=\"gap\" data-at-ns=\"10000\" data-length-ns=\"5000000\""),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<title>idle 5.000 ms at 10.000 us (largest gap #1)\nbefore: A\nafter: B"),
            std::string::npos);
  EXPECT_NE(html.find("<td>50.0%</td>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);  // self-contained, nothing to fetch
}

TEST(TraceReport, BadInputIsOneLineError) {
  Result<TraceReport> r = ReportTraceFile(WriteFile("bad.chrome_trace", "{\"traceEvents\":[{"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
  Result<int> missing = ViewerMain({"--trace-report", TempPath("missing.chrome_trace")}, 1, false);
  ASSERT_FALSE(missing.ok());
  Result<int> mixed = ViewerMain({"--trace-report", "-m", "time/ns", "x.chrome_trace"}, 1, false);
  ASSERT_FALSE(mixed.ok());
  EXPECT_EQ(mixed.status().message(), "--trace-report cannot be combined with -m/--metrics");
}

// A real H200 trace (tests/refdata/h200-traces): 46 kernels of 4 names on one stream, each
// launched through a flow.
TEST(TraceReport, H200WorkloadTrace) {
  for (const char* name : {"workload_json.chrome_trace", "workload_pb.perfetto_trace"}) {
    Result<TraceReport> r =
        ReportTraceFile(std::string(PROTON_SOURCE_DIR) + "/tests/refdata/h200-traces/" + name);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->kernels, 46u) << name;
    EXPECT_EQ(r->kernel_names, 4u) << name;
    EXPECT_EQ(r->launch.count, 46u) << name;
    ASSERT_FALSE(r->streams.empty());
    EXPECT_GT(r->streams[0].busy_ns, 0);
    EXPECT_LE(r->launch.p50_ns, r->launch.p99_ns);
  }
}

}  // namespace
}  // namespace proton::viewer
