// Tests of the .chrome_trace writer (formats.md §4.4, §6): the 3.6 kernel fields of the
// reference traces kept, the whole layout of a small trace, lanes, flows, scope-metric events,
// kernel metrics, the empty trace, escaping and chunked output.
#include "core/dump/chrome_trace_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/testing/json_reader.h"
#include "core/testing/test_util.h"

namespace proton {
namespace {

using test::Json;

// "<prefix><n>" (operator+ on a temporary trips GCC 12's -Wrestrict).
std::string Named(std::string prefix, uint64_t n) { return prefix.append(std::to_string(n)); }

std::string Write(TraceData& data) {
  std::string out;
  data.WithLock([&] { WriteChromeTrace(data, out); });
  return out;
}

NodeRef At(TraceData& data, const std::vector<std::string>& stack) {
  NodeRef n = data.Root();
  for (size_t i = 1; i < stack.size(); ++i) n = data.Child(n, stack[i]);
  return n;
}

// A kernel record as the correlator applies it: `launch_thread` and `launch_ns` are the stamp of
// its launch (0: unknown).
void AddEvent(TraceData& data, const std::vector<std::string>& stack, uint64_t start, uint64_t end,
              uint32_t stream, uint64_t correlation = 0, uint32_t graph = 0,
              uint64_t launch_thread = 0, uint64_t launch_ns = 0) {
  KernelRecord r;
  r.correlation_id = correlation;
  r.launch_thread = launch_thread;
  r.launch_ns = launch_ns;
  r.start_ns = start;
  r.end_ns = end;
  r.stream_id = stream;
  r.graph_id = graph;
  data.AddKernel(At(data, stack), r, false);
}

// Events of one category, in file order.
std::vector<const Json*> Category(const Json& doc, std::string_view cat) {
  std::vector<const Json*> found;
  for (const Json& e : doc["traceEvents"].array) {
    if (const Json* c = e.Find("cat"); c != nullptr && c->s == cat) found.push_back(&e);
  }
  return found;
}

// Lane name by tid, from the thread_name metadata events.
std::map<int64_t, std::string> LaneNames(const Json& doc) {
  std::map<int64_t, std::string> names;
  for (const Json& e : doc["traceEvents"].array) {
    if (e["ph"].s == "M" && e["name"].s == "thread_name") names[e["tid"].i] = e["args"]["name"].s;
  }
  return names;
}

class ChromeTraceRef : public testing::TestWithParam<const char*> {};

// The kernel events keep every 3.6 field and value (tid now names a lane: "GPU Stream <id>").
TEST_P(ChromeTraceRef, KeepsTheKernelFieldsOf36) {
  test::Json ref = test::ParseOrDie(test::ReadFile(test::RefPath(GetParam())));
  TraceData data;
  const uint64_t base = 1'000'000'000;
  for (const Json& e : ref["traceEvents"].array) {
    std::vector<std::string> stack;
    for (const Json& f : e["args"]["call_stack"].array) stack.push_back(f.s);
    auto ts = static_cast<uint64_t>(std::llround(e["ts"].d * 1000));
    auto dur = static_cast<uint64_t>(std::llround(e["dur"].d * 1000));
    AddEvent(data, stack, base + ts, base + ts + dur, static_cast<uint32_t>(e["tid"].i));
  }
  std::string text = Write(data);
  Json ours = test::ParseOrDie(text);
  EXPECT_EQ(ours["baseTimeNanoseconds"].i, static_cast<int64_t>(base));
  std::vector<const Json*> kernels = Category(ours, "kernel");
  const auto& ref_events = ref["traceEvents"].array;
  ASSERT_EQ(kernels.size(), ref_events.size());
  std::map<int64_t, std::string> lanes = LaneNames(ours);
  for (size_t i = 0; i < kernels.size(); ++i) {
    const Json& k = *kernels[i];
    const Json& r = ref_events[i];
    std::vector<std::string> keys;
    for (const auto& [key, v] : k.object) keys.push_back(key);
    EXPECT_EQ(keys,
              (std::vector<std::string>{"args", "cat", "dur", "name", "ph", "pid", "tid", "ts"}));
    EXPECT_EQ(k["name"].s, r["name"].s);
    EXPECT_EQ(k["ph"].s, "X");
    EXPECT_EQ(k["pid"].i, 0);
    EXPECT_EQ(k["ts"].d, r["ts"].d) << i;
    EXPECT_EQ(k["dur"].d, r["dur"].d) << i;
    EXPECT_EQ(k["args"]["call_stack"].array.size(), r["args"]["call_stack"].array.size());
    EXPECT_EQ(lanes[k["tid"].i], Named("GPU Stream ", static_cast<uint64_t>(r["tid"].i)));
  }
  EXPECT_TRUE(Category(ours, "flow").empty());  // no launch stamps: no flows
}

INSTANTIATE_TEST_SUITE_P(Refdata, ChromeTraceRef,
                         testing::Values("ref_trace.chrome_trace", "gpt2_trace.chrome_trace"));

TEST(ChromeTrace, EmptyTraceIsAnEmptyDocument) {
  TraceData data;
  EXPECT_EQ(Write(data),
            "{\"baseTimeNanoseconds\":0,\"displayTimeUnit\":\"us\",\"traceEvents\":[]}\n");
}

// The whole layout: metadata, kernels (GPU lane, then graph lane), scope, metric event, flows.
TEST(ChromeTrace, SmallTraceByteForByte) {
  TraceData data;
  ScopeEventRef scope = data.BeginScope(42, "phase", 1000);
  ASSERT_TRUE(data.AddScopeEventMetrics(scope, {{"loss", 2.5}, {"bytes", int64_t{8}}}).ok());
  data.EndScope(scope, 4000);
  AddEvent(data, {"ROOT", "phase", "g"}, 3000, 3500, 7, 2, /*graph=*/9, 42, 1600);
  AddEvent(data, {"ROOT", "phase", "k"}, 2000, 2250, 7, 1, 0, 42, 1500);
  EXPECT_EQ(
      Write(data),
      "{\"baseTimeNanoseconds\":1000,\"displayTimeUnit\":\"us\",\"traceEvents\":["
      "{\"args\":{\"name\":\"Trace\"},\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0},"
      "{\"args\":{\"sort_index\":0},\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":0},"
      "{\"args\":{\"name\":\"CPU Thread 42\"},\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
      "\"tid\":0},"
      "{\"args\":{\"sort_index\":0},\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,"
      "\"tid\":0},"
      "{\"args\":{\"name\":\"GPU Stream 7\"},\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
      "\"tid\":1},"
      "{\"args\":{\"sort_index\":1},\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,"
      "\"tid\":1},"
      "{\"args\":{\"name\":\"Graph: Stream 7\"},\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
      "\"tid\":2},"
      "{\"args\":{\"sort_index\":2},\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,"
      "\"tid\":2},"
      "{\"args\":{\"call_stack\":[\"ROOT\",\"phase\",\"k\"]},\"cat\":\"kernel\",\"dur\":0.25,"
      "\"name\":\"k\",\"ph\":\"X\",\"pid\":0,\"tid\":1,\"ts\":1.0},"
      "{\"args\":{\"call_stack\":[\"ROOT\",\"phase\",\"g\"]},\"cat\":\"kernel\",\"dur\":0.5,"
      "\"name\":\"g\",\"ph\":\"X\",\"pid\":0,\"tid\":2,\"ts\":2.0},"
      "{\"cat\":\"scope\",\"dur\":3.0,\"name\":\"phase\",\"ph\":\"X\",\"pid\":0,\"tid\":0,"
      "\"ts\":0.0},"
      "{\"args\":{\"metrics\":{\"bytes\":8,\"loss\":2.5}},\"cat\":\"metric\",\"dur\":3.0,"
      "\"name\":\"phase: <bytes, 8>, <loss, 2.5>\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":0.0},"
      "{\"cat\":\"flow\",\"id\":1,\"name\":\"launch->kernel\",\"ph\":\"s\",\"pid\":0,\"tid\":0,"
      "\"ts\":0.5},"
      "{\"bp\":\"e\",\"cat\":\"flow\",\"id\":1,\"name\":\"launch->kernel\",\"ph\":\"f\","
      "\"pid\":0,\"tid\":1,\"ts\":1.0},"
      "{\"cat\":\"flow\",\"id\":2,\"name\":\"launch->kernel\",\"ph\":\"s\",\"pid\":0,\"tid\":0,"
      "\"ts\":0.6},"
      "{\"bp\":\"e\",\"cat\":\"flow\",\"id\":2,\"name\":\"launch->kernel\",\"ph\":\"f\","
      "\"pid\":0,\"tid\":2,\"ts\":2.0}]}\n");
}

// Every flow starts on the launching thread's lane at the launch and ends at its kernel.
TEST(ChromeTrace, FlowsPointAtTheirKernels) {
  TraceData data;
  // Kernels k<i> on streams 3 and 5, launched alternately by threads 100 and 200.
  for (uint64_t i = 1; i <= 6; ++i) {
    uint64_t thread = i % 2 ? 100 : 200;
    AddEvent(data, {"ROOT", Named("k", i)}, 1000 * i + 300 + (7 - i) * 10000,
             1000 * i + 400 + (7 - i) * 10000, i <= 3 ? 5 : 3, i, 0, thread, 1000 * i);
  }
  AddEvent(data, {"ROOT", "unstamped"}, 500, 600, 3, 99);  // no launch known: no flow
  Json doc = test::ParseOrDie(Write(data));
  std::map<int64_t, std::string> lanes = LaneNames(doc);
  std::map<int64_t, const Json*> starts, finishes;
  for (const Json* f : Category(doc, "flow")) {
    EXPECT_EQ(f->Find("name")->s, "launch->kernel");
    (f->Find("ph")->s == "s" ? starts : finishes)[f->Find("id")->i] = f;
  }
  ASSERT_EQ(starts.size(), 6u);
  ASSERT_EQ(finishes.size(), 6u);
  for (const Json* k : Category(doc, "kernel")) {
    if ((*k)["name"].s == "unstamped") continue;
    uint64_t i = std::stoull((*k)["name"].s.substr(1));
    const Json* end = nullptr;
    for (const auto& [id, f] : finishes) {
      if ((*f)["tid"].i == (*k)["tid"].i && (*f)["ts"].d == (*k)["ts"].d) end = f;
    }
    ASSERT_NE(end, nullptr) << i;
    EXPECT_EQ((*end)["bp"].s, "e");
    const Json& start = *starts.at((*end)["id"].i);
    EXPECT_EQ(lanes[start["tid"].i], Named("CPU Thread ", i % 2 ? 100 : 200));
    EXPECT_EQ(start["ts"].d, static_cast<double>(1000 * i - 500) / 1000.0);  // base 500
    EXPECT_EQ(lanes[(*k)["tid"].i], Named("GPU Stream ", i <= 3 ? 5 : 3));
  }
}

TEST(ChromeTrace, KernelsCarryTheMetricsOfTheirNode) {
  TraceData data;
  NodeRef k = At(data, {"ROOT", "op", "k"});
  ASSERT_TRUE(data.AddMetrics(k, {{"flops", int64_t{10}}, {"bytes", int64_t{4}}}).ok());
  ASSERT_TRUE(data.AddMetrics(k, {{"flops", int64_t{12}}}).ok());  // the latest value wins
  AddEvent(data, {"ROOT", "op", "k"}, 10, 20, 7);
  AddEvent(data, {"ROOT", "plain"}, 30, 40, 7);
  Json doc = test::ParseOrDie(Write(data));
  std::vector<const Json*> kernels = Category(doc, "kernel");
  ASSERT_EQ(kernels.size(), 2u);
  const Json& metrics = (*kernels[0])["args"]["metrics"];
  EXPECT_EQ(metrics["bytes"].i, 4);
  EXPECT_EQ(metrics["flops"].d, 12.0);  // roofline names are doubles (profiler.md §1.8)
  EXPECT_EQ((*kernels[1])["args"].Find("metrics"), nullptr);
}

TEST(ChromeTrace, NamesAreEscaped) {
  TraceData data;
  const std::string odd = "a\"b\\c\nd\te\x01 \xc3\xa9";
  ScopeEventRef s = data.BeginScope(1, odd, 10);
  ASSERT_TRUE(data.AddScopeEventMetrics(s, {{odd, int64_t{1}}}).ok());
  data.EndScope(s, 20);
  AddEvent(data, {"ROOT", odd}, 15, 16, 7);
  std::string text = Write(data);
  EXPECT_EQ(text.find('\n'), text.size() - 1);  // one line
  Json doc = test::ParseOrDie(text);
  EXPECT_EQ((*Category(doc, "kernel")[0])["name"].s, odd);
  EXPECT_EQ((*Category(doc, "kernel")[0])["args"]["call_stack"].array[1].s, odd);
  EXPECT_EQ((*Category(doc, "scope")[0])["name"].s, odd);
  std::string metric_name = odd;
  metric_name.append(": <").append(odd).append(", 1>");
  EXPECT_EQ((*Category(doc, "metric")[0])["name"].s, metric_name);
}

TEST(ChromeTrace, OpenScopesEndAtTheLastTimestamp) {
  TraceData data;
  data.BeginScope(1, "open", 100);
  AddEvent(data, {"ROOT", "k"}, 200, 900, 7);
  Json doc = test::ParseOrDie(Write(data));
  EXPECT_EQ((*Category(doc, "scope")[0])["dur"].d, 0.8);
}

TEST(ChromeTrace, ChunkedOutputIsTheSameText) {
  TraceData data;
  for (uint64_t i = 1; i <= 30000; ++i) {
    AddEvent(data, {"ROOT", "kernel_with_a_long_name"}, i * 100, i * 100 + 50,
             static_cast<uint32_t>(i % 3), i, 0, 1, i * 10);
  }
  std::string whole = Write(data);
  std::string chunked, out;
  size_t chunks = 0;
  ChunkSink sink = [&](std::string_view chunk) {
    ++chunks;
    chunked.append(chunk);
    return true;
  };
  data.WithLock([&] { WriteChromeTrace(data, out, &sink); });
  EXPECT_TRUE(out.empty());
  EXPECT_GT(chunks, 2u);
  EXPECT_EQ(chunked, whole);
}

}  // namespace
}  // namespace proton
