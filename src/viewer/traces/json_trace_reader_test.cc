// Tests for the Chrome-trace reader (formats.md §4, §6): the events of every layout equal
// the ones the text holds, items cut by the window's end read the same, and damaged input is
// one clear error.
#include "viewer/traces/json_trace_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "viewer/traces/json_scan.h"
#include "viewer/traces/testing/recording_visitor.h"

namespace proton::viewer::traces {
namespace {

using testing::ReadBytes;
using testing::RecordedEvent;
using testing::RecordingVisitor;

constexpr int64_t kBase = 1700000000000000000;

// Our profiler's layout (§6): metadata, kernels with call stacks and metrics, a scope, its
// metric event, one launch->kernel flow.
const std::string kOurs =
    R"({"baseTimeNanoseconds":1700000000000000000,"displayTimeUnit":"us","traceEvents":[)"
    R"({"args":{"name":"Trace"},"name":"process_name","ph":"M","pid":0},)"
    R"({"args":{"sort_index":0},"name":"process_sort_index","ph":"M","pid":0},)"
    R"({"args":{"name":"CPU Thread 42"},"name":"thread_name","ph":"M","pid":0,"tid":0},)"
    R"({"args":{"sort_index":0},"name":"thread_sort_index","ph":"M","pid":0,"tid":0},)"
    R"({"args":{"name":"GPU Stream 7"},"name":"thread_name","ph":"M","pid":0,"tid":1},)"
    R"({"args":{"call_stack":["ROOT","step","add_kernel"],"metrics":{"bytes":1024,"flops":2.5}},)"
    R"("cat":"kernel","dur":3.008,"name":"add_kernel","ph":"X","pid":0,"tid":1,"ts":10.5},)"
    R"({"args":{"call_stack":["ROOT","matmul"]},"cat":"kernel","dur":6.112,"name":"matmul",)"
    R"("ph":"X","pid":0,"tid":1,"ts":20.0},)"
    R"({"cat":"scope","dur":30.0,"name":"step","ph":"X","pid":0,"tid":0,"ts":0.0},)"
    R"({"args":{"metrics":{"loss":2.5,"v":[1,2]}},"cat":"metric","dur":30.0,)"
    R"("name":"step: <loss, 2.5>","ph":"X","pid":0,"tid":0,"ts":0.0},)"
    R"({"cat":"flow","id":1,"name":"launch->kernel","ph":"s","pid":0,"tid":0,"ts":5.25},)"
    R"({"bp":"e","cat":"flow","id":1,"name":"launch->kernel","ph":"f","pid":0,"tid":1,"ts":10.5})"
    "]}\n";

void ExpectOurs(const RecordingVisitor& v) {
  EXPECT_EQ(v.begins, 1);
  EXPECT_EQ(v.ends, 1);
  EXPECT_TRUE(v.info.absolute_time);
  EXPECT_EQ(v.info.base_ns, kBase);
  EXPECT_EQ(v.info.process_name, "Trace");
  ASSERT_EQ(v.tracks.size(), 2u);
  EXPECT_EQ(v.tracks[0].kind, TrackKind::kCpuThread);
  EXPECT_EQ(v.tracks[0].id, 42);
  EXPECT_EQ(v.tracks[1].kind, TrackKind::kGpuStream);
  EXPECT_EQ(v.tracks[1].id, 7);
  EXPECT_EQ(v.tracks[1].name, "GPU Stream 7");
  ASSERT_EQ(v.events.size(), 6u);
  const RecordedEvent& k = v.events[0];
  EXPECT_EQ(k.kind, EventKind::kKernel);
  EXPECT_EQ(k.name, "add_kernel");
  EXPECT_EQ(k.track, 1u);
  EXPECT_EQ(k.start_ns, kBase + 10500);
  EXPECT_EQ(k.end_ns, kBase + 13508);
  EXPECT_EQ(k.call_stack, (std::vector<std::string>{"ROOT", "step", "add_kernel"}));
  ASSERT_EQ(k.metrics.size(), 2u);
  EXPECT_EQ(k.FindMetric("bytes")->type, Metric::Type::kInt);
  EXPECT_EQ(k.FindMetric("bytes")->int_value, 1024);
  EXPECT_EQ(k.FindMetric("flops")->double_value, 2.5);
  EXPECT_EQ(v.events[1].end_ns - v.events[1].start_ns, 6112);
  EXPECT_EQ(v.events[2].kind, EventKind::kScope);
  EXPECT_EQ(v.events[2].track, 0u);
  EXPECT_EQ(v.events[3].kind, EventKind::kMetric);
  EXPECT_EQ(v.events[3].FindMetric("v")->text, "[1,2]");
  const RecordedEvent& launch = v.events[4];
  EXPECT_EQ(launch.kind, EventKind::kFlow);
  EXPECT_TRUE(launch.instant);
  EXPECT_EQ(launch.start_ns, kBase + 5250);
  EXPECT_EQ(launch.flows_out, std::vector<uint64_t>{1});
  EXPECT_EQ(v.events[5].flows_in, std::vector<uint64_t>{1});
  EXPECT_EQ(v.events[5].track, 1u);
  EXPECT_EQ(v.summary.events, 6u);
  EXPECT_EQ(v.summary.unsupported, 0u);
}

TEST(JsonTraceReader, OurLayoutGivesTheEventsItHolds) {
  RecordingVisitor v;
  ASSERT_TRUE(ReadBytes(kOurs, v).ok());
  ExpectOurs(v);
}

TEST(JsonTraceReader, Triton36LinesAreRelativeAndNamedByTheirStream) {
  const std::string text =
      R"({"displayTimeUnit":"us","traceEvents":[{"args":{"call_stack":["ROOT","add_kernel"]},)"
      R"("cat":"kernel","dur":3.008,"name":"add_kernel","ph":"X","tid":7,"ts":0.0},)"
      R"({"args":{"call_stack":["ROOT","add_kernel"]},"cat":"kernel","dur":2.272,)"
      R"("name":"add_kernel","ph":"X","tid":7,"ts":203.197}]})"
      "\n"
      R"({"displayTimeUnit":"us","traceEvents":[{"args":{"call_stack":["ROOT","k"]},)"
      R"("cat":"kernel","dur":1.0,"name":"k","ph":"X","tid":13,"ts":95661.532}]})"
      "\n";
  RecordingVisitor v;
  ASSERT_TRUE(ReadBytes(text, v).ok()) << ReadBytes(text, v).message();
  EXPECT_FALSE(v.info.absolute_time);
  ASSERT_EQ(v.tracks.size(), 2u);
  EXPECT_EQ(v.tracks[0].name, "GPU Stream 7");
  EXPECT_EQ(v.tracks[1].kind, TrackKind::kGpuStream);
  EXPECT_EQ(v.tracks[1].id, 13);
  ASSERT_EQ(v.events.size(), 3u);
  EXPECT_EQ(v.events[1].start_ns, 203197);
  EXPECT_EQ(v.events[2].start_ns, 95661532);
  EXPECT_EQ(v.events[2].end_ns, 95662532);
}

TEST(JsonTraceReader, ABareListOfEvents) {
  RecordingVisitor v;
  ASSERT_TRUE(
      ReadBytes(R"([{"name":"a","cat":"kernel","ph":"X","ts":1,"dur":2,"pid":1,"tid":2}])", v)
          .ok());
  ASSERT_EQ(v.events.size(), 1u);
  EXPECT_EQ(v.events[0].end_ns, 3000);
  EXPECT_EQ(v.tracks[0].kind, TrackKind::kGpuStream);
}

TEST(JsonTraceReader, EmptyTraces) {
  const std::string ours = R"({"baseTimeNanoseconds":0,"displayTimeUnit":"us","traceEvents":[]})";
  for (const std::string& text :
       {std::string(), std::string(" \n"), ours + "\n",
        std::string(R"({"displayTimeUnit":"us","traceEvents":[]})"), std::string("[]")}) {
    RecordingVisitor v;
    EXPECT_TRUE(ReadBytes(text, v).ok()) << text;
    EXPECT_EQ(v.begins, 1) << text;
    EXPECT_EQ(v.ends, 1) << text;
    EXPECT_TRUE(v.events.empty());
  }
}

// Triton main: lanes 0 / 100000+ / 200000+, metric values as strings, flows before kernels.
TEST(JsonTraceReader, TritonMainLayout) {
  const std::string text =
      R"({"displayTimeUnit":"us","traceEvents":[)"
      R"({"args":{"name":"Trace"},"name":"process_name","ph":"M","pid":0,"tid":0},)"
      R"({"args":{"name":"CPU Thread 9"},"name":"thread_name","ph":"M","pid":0,"tid":9},)"
      R"({"args":{"name":"GPU Stream 7"},"name":"thread_name","ph":"M","pid":0,"tid":200007},)"
      R"({"args":{"call_stack":["ROOT","s"]},"cat":"scope","dur":5.0,"name":"s","ph":"X",)"
      R"("pid":0,"tid":9,"ts":0.0},)"
      R"({"bp":"e","cat":"flow","id":3,"name":"launch->kernel","ph":"s","pid":0,"tid":9,"ts":0.0},)"
      R"({"bp":"e","cat":"flow","id":3,"name":"launch->kernel","ph":"f","pid":0,"tid":200007,)"
      R"("ts":7.5},{"args":{"call_stack":["ROOT","s","k"],"metrics":{"flops":"1024.000000"}},)"
      R"("cat":"kernel","dur":1.0,"name":"k","ph":"X","pid":0,"tid":200007,"ts":7.5}]})";
  RecordingVisitor v;
  ASSERT_TRUE(ReadBytes(text, v).ok());
  EXPECT_FALSE(v.info.absolute_time);
  ASSERT_EQ(v.tracks.size(), 2u);
  EXPECT_EQ(v.tracks[1].id, 7);
  const RecordedEvent& k = v.events.back();
  EXPECT_EQ(k.kind, EventKind::kKernel);
  EXPECT_EQ(k.FindMetric("flops")->type, Metric::Type::kString);
  EXPECT_EQ(k.FindMetric("flops")->text, "1024.000000");
  EXPECT_EQ(v.events[2].flows_in, std::vector<uint64_t>{3});
}

TEST(JsonTraceReader, EscapesAndUnicodeAreDecoded) {
  RecordingVisitor v;
  ASSERT_TRUE(ReadBytes("[{\"name\":\"a\\\"b\\\\\\u00e9\\ud83d\\ude00\\n\xc3\xa9\",\"ph\":\"i\","
                        "\"ts\":0,\"cat\":\"x\"}]",
                        v)
                  .ok());
  ASSERT_EQ(v.events.size(), 1u);
  EXPECT_EQ(v.events[0].name, "a\"b\\\xc3\xa9\xf0\x9f\x98\x80\n\xc3\xa9");
  EXPECT_TRUE(v.events[0].instant);
  EXPECT_EQ(v.events[0].kind, EventKind::kOther);
}

TEST(JsonTraceReader, ABaseTimeAfterTheEventsLeavesThemRelative) {
  RecordingVisitor v;
  ASSERT_TRUE(
      ReadBytes(R"({"traceEvents":[{"name":"a","ph":"i","ts":1}],"baseTimeNanoseconds":5})", v)
          .ok());
  EXPECT_FALSE(v.info.absolute_time);
  EXPECT_EQ(v.events[0].start_ns, 1000);
  EXPECT_EQ(v.summary.late_base_ns, 5);
}

TEST(JsonTraceReader, UnsupportedPhasesAreCountedNotGiven) {
  RecordingVisitor v;
  ASSERT_TRUE(ReadBytes(R"([{"name":"a","ph":"B","ts":1},{"name":"c","ph":"C","ts":2},)"
                        R"({"name":"x","ph":"X","ts":3}])",
                        v)
                  .ok());
  EXPECT_EQ(v.events.size(), 1u);
  EXPECT_EQ(v.summary.unsupported, 2u);
}

// Every read through a file with tiny chunks: each item is cut by the window's end somewhere.
TEST(JsonTraceReader, ItemsCutByTheWindowReadTheSame) {
  char path[] = "/tmp/proton_trace_test_XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, kOurs.data(), kOurs.size()), static_cast<ssize_t>(kOurs.size()));
  ::close(fd);
  for (size_t chunk : {1, 2, 3, 7, 64}) {
    TraceInput::SetChunkForTest(chunk);
    RecordingVisitor v;
    const Status s = ReadTraceFile(path, v);
    EXPECT_TRUE(s.ok()) << chunk << ": " << s.message();
    ExpectOurs(v);
  }
  TraceInput::SetChunkForTest(0);
  ::unlink(path);
}

TEST(JsonTraceReader, EveryTruncationIsOneErrorLine) {
  const size_t end = kOurs.find_last_of('}') + 1;
  for (size_t n = 1; n < end; ++n) {
    RecordingVisitor v;
    const Status s = ReadBytes(kOurs.substr(0, n), v);
    ASSERT_FALSE(s.ok()) << n;
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("'t'"), std::string::npos) << s.message();
  }
}

TEST(JsonTraceReader, DamagedInputGivesAClearError) {
  const std::pair<std::string, std::string> cases[] = {
      {"{]", "invalid JSON at byte 1: expected a key"},
      {"[{\"ph\":\"X\",\"ts\":1}", "ends early"},
      {"[{\"ph\":\"X\",\"ts\":\"1\"}]", "\"ts\" is not a number"},
      {"[{\"ph\":\"X\"}]", "an event without \"ts\" (event 1)"},
      {"[{\"ph\":\"X\",\"ts\":1e400}]", "\"ts\" out of range"},
      {"[{\"name\":\"\xff\",\"ph\":\"X\",\"ts\":1}]", "invalid UTF-8"},
      {"[{\"name\":\"\\udc00\",\"ph\":\"X\",\"ts\":1}]", "lone surrogate"},
      {"[{\"name\":\"a\x01\",\"ph\":\"X\",\"ts\":1}]", "control character"},
      {"[{\"ph\":\"X\",\"ts\":1,}]", "expected a key"},
      {"[{\"ph\":\"X\",\"ts\":01}]", "expected ',' or '}'"},
      {"[{\"ph\":\"X\",\"ts\":1,\"args\":{\"a\":[1,}}]", "expected a value"},
      {"[{\"ph\":\"X\",\"ts\":1}] x", "expected a trace object"},
      {"{\"traceEvents\":{}}", "traceEvents is not a list"},
      {"[{\"children\":[],\"frame\":{\"name\":\"ROOT\"},\"metrics\":{}},{}]",
       "'t' is a Proton tree profile, not a trace"},
      {"\x92\x81", "'t' is a Proton tree profile, not a trace"},
      {"hello", "not a Chrome (JSON) or Perfetto (protobuf) trace"},
      {std::string("[\0]", 3), "invalid JSON at byte 1"},
  };
  for (const auto& [text, expected] : cases) {
    RecordingVisitor v;
    const Status s = ReadBytes(text, v);
    ASSERT_FALSE(s.ok()) << text;
    EXPECT_NE(s.message().find(expected), std::string::npos) << text << " -> " << s.message();
  }
}

TEST(JsonScan, MicrosecondsBecomeExactNanoseconds) {
  const std::pair<std::string, int64_t> cases[] = {
      {"95661.532", 95661532},
      {"0", 0},
      {"0.0", 0},
      {"1e3", 1000000},
      {"0.0004", 0},
      {"0.0005", 1},
      {"-1.5", -1500},
      {"1.2345e2", 123450},
      {"2.5E-3", 3},
      {"9.2e12", 9200000000000000},
      {"1700000000000000.001", 1700000000000000001},
  };
  for (const auto& [token, ns] : cases) {
    int64_t got = -7;
    EXPECT_TRUE(MicrosecondsToNanoseconds(token, got)) << token;
    EXPECT_EQ(got, ns) << token;
  }
  int64_t ignored = 0;
  for (const char* bad : {"NaN", "Infinity", "-Infinity", "1e400", "1e16"}) {
    EXPECT_FALSE(MicrosecondsToNanoseconds(bad, ignored)) << bad;
  }
}

}  // namespace
}  // namespace proton::viewer::traces
