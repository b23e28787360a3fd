// Tests of the .perfetto_trace writer (formats.md §7), decoding its output with
// util/proto_wire.h's Reader (core/testing/perfetto_decode.h): the packets before the events,
// the lanes, one slice per scope with its metrics, call stacks, flows, absolute time, valid
// tracks (time order, nesting, clamped overlaps), kernel counts against the TraceData and the
// .chrome_trace of the same data, several devices, self-contained files, chunked output.
#include "core/dump/perfetto_trace_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <map>

#include "core/dump/chrome_trace_writer.h"
#include "core/testing/json_reader.h"
#include "core/testing/perfetto_decode.h"
#include "core/testing/test_util.h"
#include "util/perfetto_fields.h"

namespace proton {
namespace {

using test::DecodedAnnotation;
using test::DecodedEvent;
using test::DecodedTrace;
namespace pf = perfetto;

constexpr uint64_t kBase = 1'750'000'000'000'000'000ull;  // a CLOCK_REALTIME time, ns

PerfettoTraceOptions FixedOptions() {
  PerfettoTraceOptions options;
  options.pid = 4242;
  options.realtime_ns = kBase + 99;
  options.boottime_ns = 12345;
  return options;
}

std::string Write(TraceData& data, PerfettoTraceStats* stats = nullptr) {
  std::string out;
  data.WithLock([&] {
    PerfettoTraceStats s = WritePerfettoTrace(data, out, nullptr, FixedOptions());
    if (stats != nullptr) *stats = s;
  });
  return out;
}

DecodedTrace Decode(TraceData& data, PerfettoTraceStats* stats = nullptr) {
  DecodedTrace trace = test::DecodePerfettoTrace(Write(data, stats));
  EXPECT_EQ(trace.error, "");
  EXPECT_EQ(test::CheckTracks(trace), "");
  return trace;
}

NodeRef At(TraceData& data, const std::vector<std::string>& stack) {
  NodeRef n = data.Root();
  for (size_t i = 1; i < stack.size(); ++i) n = data.Child(n, stack[i]);
  return n;
}

// A kernel record as the correlator applies it: `launch_thread` and `launch_ns` are the stamp of
// its launch (0: unknown).
void AddEvent(TraceData& data, const std::vector<std::string>& stack, uint64_t start, uint64_t end,
              uint32_t stream, uint64_t correlation = 0, uint32_t graph = 0, uint32_t device = 0,
              uint64_t launch_thread = 0, uint64_t launch_ns = 0) {
  KernelRecord r;
  r.launch_thread = launch_thread;
  r.launch_ns = launch_ns;
  r.correlation_id = correlation;
  r.start_ns = start;
  r.end_ns = end;
  r.stream_id = stream;
  r.graph_id = graph;
  r.device_id = device;
  data.AddKernel(At(data, stack), r, false);
}

std::vector<const DecodedEvent*> OnTrack(const DecodedTrace& trace, std::string_view lane) {
  std::vector<const DecodedEvent*> found;
  const test::DecodedTrack* track = trace.TrackNamed(lane);
  if (track == nullptr) return found;
  for (const DecodedEvent& e : trace.events) {
    if (e.track == track->uuid) found.push_back(&e);
  }
  return found;
}

std::vector<std::string> LaneNames(const DecodedTrace& trace) {
  std::vector<std::string> names;
  for (const test::DecodedTrack& t : trace.tracks) {
    if (t.parent != 0) names.push_back(t.name);
  }
  return names;
}

TEST(PerfettoTrace, EmptyTraceIsAValidFile) {
  TraceData data;
  std::string file = Write(data);
  DecodedTrace trace = test::DecodePerfettoTrace(file);
  EXPECT_EQ(trace.error, "");
  EXPECT_EQ(trace.packets, 3u);  // clock snapshot, sequence start, process track
  EXPECT_TRUE(trace.clock_snapshot_first);
  EXPECT_EQ(trace.clocks, (std::map<uint64_t, uint64_t>{{1, kBase + 99}, {6, 12345}}));
  EXPECT_EQ(trace.primary_clock, pf::kClockRealtime);
  EXPECT_EQ(trace.default_clock, pf::kClockRealtime);
  ASSERT_EQ(trace.tracks.size(), 1u);
  EXPECT_EQ(trace.tracks[0].uuid, 1u);
  EXPECT_EQ(trace.tracks[0].pid, 4242);
  EXPECT_EQ(trace.tracks[0].process_name, "Trace");
  EXPECT_EQ(trace.tracks[0].child_ordering, pf::kChildOrderingExplicit);
  EXPECT_TRUE(trace.events.empty());
  EXPECT_EQ(trace.category_iids,
            (std::map<std::string, uint64_t>{{"kernel", 2}, {"launch", 3}, {"scope", 1}}));
  EXPECT_LT(file.size(), 128u);
}

TEST(PerfettoTrace, TheClockIsReadWhenNotGiven) {
  TraceData data;
  std::string out;
  data.WithLock([&] { WritePerfettoTrace(data, out); });
  DecodedTrace trace = test::DecodePerfettoTrace(out);
  EXPECT_GT(trace.clocks.at(1), kBase);  // CLOCK_REALTIME now is past 2025
  EXPECT_GT(trace.clocks.at(6), 0u);
  EXPECT_EQ(trace.tracks[0].pid, static_cast<int64_t>(getpid()));
}

// The whole small trace: lanes, one slice per scope with its metrics, launches with flows,
// kernels with call stacks, absolute timestamps.
TEST(PerfettoTrace, SmallTrace) {
  TraceData data;
  ScopeEventRef scope = data.BeginScope(42, "phase", kBase + 1000);
  ASSERT_TRUE(data.AddScopeEventMetrics(scope, {{"loss", 2.5}, {"bytes", int64_t{8}}}).ok());
  data.EndScope(scope, kBase + 4000);
  AddEvent(data, {"ROOT", "phase", "g"}, kBase + 3000, kBase + 3500, 7, 2, /*graph=*/9, 0, 42,
           kBase + 1600);
  AddEvent(data, {"ROOT", "phase", "k"}, kBase + 2000, kBase + 2250, 7, 1, 0, 0, 42, kBase + 1500);
  DecodedTrace trace = Decode(data);
  EXPECT_EQ(LaneNames(trace),
            (std::vector<std::string>{"CPU Thread 42", "Graph: Stream 7", "GPU Stream 7"}));
  for (size_t k = 1; k < trace.tracks.size(); ++k) {
    EXPECT_EQ(trace.tracks[k].uuid, k + 1);
    EXPECT_EQ(trace.tracks[k].parent, 1u);
    EXPECT_EQ(trace.tracks[k].rank, static_cast<int64_t>(k - 1));
  }
  std::vector<const DecodedEvent*> cpu = OnTrack(trace, "CPU Thread 42");
  ASSERT_EQ(cpu.size(), 4u);  // scope begin, two launches, scope end: one slice per scope
  EXPECT_EQ(cpu[0]->type, pf::kTypeSliceBegin);
  EXPECT_EQ(cpu[0]->ts, kBase + 1000);
  EXPECT_EQ(cpu[0]->name, "phase");
  EXPECT_EQ(cpu[0]->categories, std::vector<std::string>{"scope"});
  ASSERT_EQ(cpu[0]->annotations.size(), 2u);
  EXPECT_EQ(cpu[0]->annotations[0].name, "metric.bytes");
  EXPECT_EQ(cpu[0]->annotations[0].i, 8);
  EXPECT_EQ(cpu[0]->annotations[1].name, "metric.loss");
  EXPECT_EQ(cpu[0]->annotations[1].d, 2.5);
  EXPECT_EQ(cpu[1]->type, pf::kTypeInstant);
  EXPECT_EQ(cpu[1]->ts, kBase + 1500);
  EXPECT_EQ(cpu[1]->name, "k");
  EXPECT_EQ(cpu[1]->categories, std::vector<std::string>{"launch"});
  EXPECT_EQ(cpu[2]->name, "g");
  EXPECT_EQ(cpu[3]->type, pf::kTypeSliceEnd);
  EXPECT_EQ(cpu[3]->ts, kBase + 4000);
  std::vector<const DecodedEvent*> gpu = OnTrack(trace, "GPU Stream 7");
  ASSERT_EQ(gpu.size(), 2u);
  EXPECT_EQ(gpu[0]->ts, kBase + 2000);
  EXPECT_EQ(gpu[0]->name, "k");
  EXPECT_EQ(gpu[0]->categories, std::vector<std::string>{"kernel"});
  EXPECT_EQ(gpu[0]->CallStack(), (std::vector<std::string>{"ROOT", "phase", "k"}));
  // Only the frames between ROOT and the kernel are annotations.
  ASSERT_NE(gpu[0]->Find("call_stack_0"), nullptr);
  EXPECT_EQ(gpu[0]->Find("call_stack_0")->s, "phase");
  EXPECT_EQ(gpu[0]->Find("call_stack_1"), nullptr);
  EXPECT_EQ(gpu[0]->terminating_flow_ids, cpu[1]->flow_ids);
  EXPECT_EQ(gpu[1]->type, pf::kTypeSliceEnd);
  EXPECT_EQ(gpu[1]->ts, kBase + 2250);
  std::vector<const DecodedEvent*> graph = OnTrack(trace, "Graph: Stream 7");
  ASSERT_EQ(graph.size(), 2u);
  EXPECT_EQ(graph[0]->terminating_flow_ids, cpu[2]->flow_ids);
  EXPECT_NE(cpu[1]->flow_ids, cpu[2]->flow_ids);
}

TEST(PerfettoTrace, OverlappingKernelsAreClampedToNest) {
  TraceData data;
  AddEvent(data, {"ROOT", "a"}, 100, 300, 7);
  AddEvent(data, {"ROOT", "b"}, 200, 400, 7);  // PDL: starts before a ends, ends after it
  AddEvent(data, {"ROOT", "c"}, 250, 260, 7);  // nested in both
  AddEvent(data, {"ROOT", "d"}, 300, 350, 7);  // starts where a ends
  PerfettoTraceStats stats;
  DecodedTrace trace = Decode(data, &stats);
  EXPECT_EQ(stats.clamped_slices, 1u);
  std::vector<const DecodedEvent*> events = OnTrack(trace, "GPU Stream 7");
  std::vector<std::pair<uint64_t, uint64_t>> seen;  // (type, ts)
  seen.reserve(events.size());
  for (const DecodedEvent* e : events) seen.emplace_back(e->type, e->ts);
  EXPECT_EQ(seen,
            (std::vector<std::pair<uint64_t, uint64_t>>{
                {1, 100}, {1, 200}, {1, 250}, {2, 260}, {2, 300}, {2, 300}, {1, 300}, {2, 350}}));
  const DecodedAnnotation* original = events[1]->Find("original_dur_ns");
  ASSERT_NE(original, nullptr);
  EXPECT_EQ(original->u, 200u);
  EXPECT_EQ(events[0]->Find("original_dur_ns"), nullptr);
}

TEST(PerfettoTrace, OpenScopesEndAtTheLastTimestamp) {
  TraceData data;
  data.BeginScope(1, "open", 100);
  AddEvent(data, {"ROOT", "k"}, 200, 900, 7);
  DecodedTrace trace = Decode(data);
  std::vector<const DecodedEvent*> cpu = OnTrack(trace, "CPU Thread 1");
  ASSERT_EQ(cpu.size(), 2u);
  EXPECT_EQ(cpu[1]->ts, 900u);
}

TEST(PerfettoTrace, SeveralDevicesNameTheDevice) {
  TraceData data;
  AddEvent(data, {"ROOT", "k"}, 10, 20, 7, 0, 0, /*device=*/1);
  AddEvent(data, {"ROOT", "k"}, 10, 20, 7, 0, 0, /*device=*/0);
  AddEvent(data, {"ROOT", "g"}, 30, 40, 7, 0, /*graph=*/3, /*device=*/1);
  DecodedTrace trace = Decode(data);
  EXPECT_EQ(LaneNames(trace), (std::vector<std::string>{"Graph: GPU 1 Stream 7", "GPU 0 Stream 7",
                                                        "GPU 1 Stream 7"}));
}

TEST(PerfettoTrace, KernelsCarryTheMetricsOfTheirNode) {
  TraceData data;
  NodeRef k = At(data, {"ROOT", "op", "k"});
  ASSERT_TRUE(data.AddMetrics(k, {{"flops", int64_t{10}}, {"bytes", int64_t{-4}}}).ok());
  ASSERT_TRUE(data.AddMetrics(k, {{"flops", int64_t{12}}}).ok());  // the latest value wins
  ASSERT_TRUE(data.AddMetrics(k, {{"v", std::vector<double>{1.5, 2.5}}}).ok());
  AddEvent(data, {"ROOT", "op", "k"}, 10, 20, 7);
  AddEvent(data, {"ROOT", "plain"}, 30, 40, 7);
  DecodedTrace trace = Decode(data);
  std::vector<const DecodedEvent*> gpu = OnTrack(trace, "GPU Stream 7");
  ASSERT_EQ(gpu.size(), 4u);
  const DecodedEvent& kernel = *gpu[0];
  ASSERT_NE(kernel.Find("metric.bytes"), nullptr);
  EXPECT_EQ(kernel.Find("metric.bytes")->i, -4);
  EXPECT_EQ(kernel.Find("metric.flops")->d, 12.0);  // roofline names are doubles
  const DecodedAnnotation* v = kernel.Find("metric.v");
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(v->array.size(), 2u);
  EXPECT_EQ(v->array[1].d, 2.5);
  EXPECT_EQ(gpu[2]->Find("metric.flops"), nullptr);
  EXPECT_EQ(gpu[2]->CallStack(), (std::vector<std::string>{"ROOT", "plain"}));
  EXPECT_EQ(gpu[2]->Find("call_stack_0"), nullptr);  // a kernel under ROOT: no frame between
}

// A deterministic mix: 3 streams with overlaps, 2 threads with nested scopes, launches.
void FillMixedTrace(TraceData& data) {
  uint64_t x = 12345;
  auto next = [&x](uint64_t n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return (x >> 33) % n;
  };
  for (uint64_t i = 1; i <= 3000; ++i) {
    uint64_t thread = 100 + next(2);
    uint64_t t = kBase + i * 1000;
    ScopeEventRef scope = data.BeginScope(thread, "step", t);
    uint64_t launch_ns = t + 10 + next(50);
    if (next(4) == 0) {
      ASSERT_TRUE(data.AddScopeEventMetrics(scope, {{"n", int64_t{1}}}).ok());
    }
    if (next(10) != 0) data.EndScope(scope, t + 100 + next(2000));
    std::string name = "kernel_" + std::to_string(next(7));
    uint64_t start = t + 200 + next(300);
    AddEvent(data, {"ROOT", "step", name}, start, start + next(1500), 1 + next(3), i,
             next(5) == 0 ? 1 : 0, 0, thread, launch_ns);
  }
}

std::map<std::string, int> KernelCountsOf(const DecodedTrace& trace) {
  std::map<std::string, int> counts;
  for (const DecodedEvent& e : trace.events) {
    if (e.type == pf::kTypeSliceBegin && e.categories == std::vector<std::string>{"kernel"}) {
      ++counts[e.name];
    }
  }
  return counts;
}

TEST(PerfettoTrace, MixedTraceIsValidAndHoldsEveryKernel) {
  TraceData data;
  FillMixedTrace(data);
  PerfettoTraceStats stats;
  DecodedTrace trace = Decode(data, &stats);  // decodes, iids resolve, tracks valid, flows paired
  EXPECT_GT(stats.clamped_slices, 0u);        // scopes and kernels overlap partially here
  std::map<std::string, int> from_data;
  data.WithLock([&] {
    for (const TraceEvent& e : data.events()) ++from_data[data.tree().name(e.node)];
  });
  EXPECT_EQ(KernelCountsOf(trace), from_data);
  std::string json;
  data.WithLock([&] { WriteChromeTrace(data, json); });
  std::map<std::string, int> from_json;
  test::Json doc = test::ParseOrDie(json);
  for (const test::Json& e : doc["traceEvents"].array) {
    if (const test::Json* cat = e.Find("cat"); cat != nullptr && cat->s == "kernel") {
      ++from_json[e["name"].s];
    }
  }
  EXPECT_EQ(KernelCountsOf(trace), from_json);
  size_t flows = 0;
  for (const DecodedEvent& e : trace.events) flows += e.flow_ids.size();
  EXPECT_EQ(flows, 3000u);
}

// A phase's file stands alone: its own clock snapshot and sequence start, iids from 1 again.
TEST(PerfettoTrace, EachFileIsSelfContained) {
  TraceData phase0, phase1;
  AddEvent(phase0, {"ROOT", "a"}, 10, 20, 7);
  AddEvent(phase1, {"ROOT", "b"}, 30, 40, 7);
  std::string first = Write(phase0);
  std::string second = Write(phase1);
  DecodedTrace alone = test::DecodePerfettoTrace(second);
  EXPECT_EQ(alone.error, "");
  EXPECT_TRUE(alone.clock_snapshot_first);
  ASSERT_EQ(alone.events.size(), 2u);
  EXPECT_EQ(alone.events[0].name, "b");
  EXPECT_EQ(alone.events[0].CallStack(), (std::vector<std::string>{"ROOT", "b"}));
  // Same iids in both files (each restarts at 1): only the strings differ.
  EXPECT_EQ(first.size(), second.size());
}

// Triton 3.6's recorded traces (tests/refdata) as our TraceData: the Perfetto file holds
// every kernel, in at most `max_ratio` of the .chrome_trace's size for the same data (the
// 46-event ref_trace pays ~150 bytes of clock, sequence and track packets; bench_core has the
// 1M-kernel figures).
struct RefCase {
  const char* file;
  double max_ratio;
};

class PerfettoTraceRef : public testing::TestWithParam<RefCase> {};

TEST_P(PerfettoTraceRef, HoldsEveryKernelInAFractionOfTheJson) {
  test::Json ref = test::ParseOrDie(test::ReadFile(test::RefPath(GetParam().file)));
  TraceData data;
  std::map<std::string, int> expected;
  for (const test::Json& e : ref["traceEvents"].array) {
    std::vector<std::string> stack;
    for (const test::Json& f : e["args"]["call_stack"].array) stack.push_back(f.s);
    auto ts = static_cast<uint64_t>(std::llround(e["ts"].d * 1000));
    auto dur = static_cast<uint64_t>(std::llround(e["dur"].d * 1000));
    AddEvent(data, stack, kBase + ts, kBase + ts + dur, static_cast<uint32_t>(e["tid"].i));
    ++expected[e["name"].s];
  }
  DecodedTrace trace = Decode(data);
  EXPECT_EQ(KernelCountsOf(trace), expected);
  std::string json;
  data.WithLock([&] { WriteChromeTrace(data, json); });
  double ratio = static_cast<double>(Write(data).size()) / static_cast<double>(json.size());
  RecordProperty("size_vs_json", std::to_string(ratio));
  EXPECT_LT(ratio, GetParam().max_ratio) << GetParam().file;
}

// Measured at the commit that added them: 0.315 and 0.168.
INSTANTIATE_TEST_SUITE_P(Refdata, PerfettoTraceRef,
                         testing::Values(RefCase{"ref_trace.chrome_trace", 0.33},
                                         RefCase{"gpt2_trace.chrome_trace", 0.2}));

TEST(PerfettoTrace, OddNamesRoundTrip) {
  TraceData data;
  const std::string odd = "a\"b\\c\nd\te\x01 \xc3\xa9";
  ScopeEventRef s = data.BeginScope(1, odd, 10);
  ASSERT_TRUE(data.AddScopeEventMetrics(s, {{odd, int64_t{1}}}).ok());
  data.EndScope(s, 20);
  AddEvent(data, {"ROOT", odd, "k"}, 15, 16, 7);
  DecodedTrace trace = Decode(data);
  std::vector<const DecodedEvent*> cpu = OnTrack(trace, "CPU Thread 1");
  ASSERT_FALSE(cpu.empty());
  EXPECT_EQ(cpu[0]->name, odd);
  EXPECT_NE(cpu[0]->Find("metric." + odd), nullptr);
  EXPECT_EQ(OnTrack(trace, "GPU Stream 7")[0]->CallStack(),
            (std::vector<std::string>{"ROOT", odd, "k"}));
}

TEST(PerfettoTrace, ChunkedOutputIsTheSameBytesAndStopsOnAFailedWrite) {
  TraceData data;
  for (uint64_t i = 1; i <= 30000; ++i) {
    AddEvent(data, {"ROOT", "kernel_with_a_long_name"}, kBase + i * 100, kBase + i * 100 + 50,
             static_cast<uint32_t>(i % 3), i, 0, 0, 1, kBase + i * 10);
  }
  std::string whole = Write(data);
  std::string chunked, out;
  size_t chunks = 0;
  ChunkSink sink = [&](std::string_view chunk) {
    ++chunks;
    chunked.append(chunk);
    return true;
  };
  data.WithLock([&] { WritePerfettoTrace(data, out, &sink, FixedOptions()); });
  EXPECT_TRUE(out.empty());
  EXPECT_GT(chunks, 2u);
  EXPECT_EQ(chunked, whole);
  size_t calls = 0;
  ChunkSink failing = [&](std::string_view) { return ++calls < 2; };
  out.clear();
  data.WithLock([&] { WritePerfettoTrace(data, out, &failing, FixedOptions()); });
  EXPECT_EQ(calls, 2u);  // no chunk after the refused one
}

}  // namespace
}  // namespace proton
