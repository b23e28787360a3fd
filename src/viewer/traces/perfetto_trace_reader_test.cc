// Tests for the Perfetto reader (formats.md §7): our layout and Triton main's give the events
// the packets hold, on the right clock; damaged files are one clear error.
#include "viewer/traces/perfetto_trace_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "viewer/traces/testing/perfetto_builder.h"
#include "viewer/traces/testing/recording_visitor.h"

namespace proton::viewer::traces {
namespace {

using testing::PerfettoBuilder;
using testing::ReadBytes;
using testing::RecordedEvent;
using testing::RecordingVisitor;
using A = PerfettoBuilder::Annotation;

constexpr uint64_t kT0 = 1700000000000000000;

// Our profiler's layout: clock snapshot, REALTIME defaults, process and lane tracks, a scope
// with a metric, a launch instant, a kernel with its call stack ending the launch's flow.
std::string OurTrace() {
  PerfettoBuilder b;
  b.ClockSnapshot(kT0 + 5000000, 42);
  b.SequenceStart(/*realtime=*/true);
  b.ProcessTrack(1, 1234, "Trace");
  b.LaneTrack(2, 1, "CPU Thread 42");
  b.LaneTrack(3, 1, "GPU Stream 7");
  b.LaneTrack(4, 1, "GPU 1 Stream 9");
  b.Slice(kT0, kT0 + 30000, 2, "step", "scope", {A{"metric.loss", false, "", 3}});
  b.Event(kT0 + 5250, pf::event::kTypeInstant, 2, "add_kernel", "launch", {}, {1});
  b.Slice(kT0 + 10500, kT0 + 13508, 3, "add_kernel", "kernel",
          {A{"call_stack_0", true, "ROOT"}, A{"call_stack_1", true, "step"},
           A{"call_stack_2", true, "add_kernel"}, A{"metric.bytes", false, "", 1024}},
          {}, {1});
  b.Slice(kT0 + 20000, kT0 + 21000, 4, "k", "kernel");
  return b.bytes();
}

TEST(PerfettoTraceReader, OurLayoutGivesTheEventsItHolds) {
  RecordingVisitor v;
  const Status s = ReadBytes(OurTrace(), v);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(v.info.format, TraceFormat::kPerfetto);
  EXPECT_TRUE(v.info.absolute_time);
  EXPECT_EQ(v.info.pid, 1234);
  EXPECT_EQ(v.info.process_name, "Trace");
  ASSERT_EQ(v.tracks.size(), 3u);
  EXPECT_EQ(v.tracks[0].kind, TrackKind::kCpuThread);
  EXPECT_EQ(v.tracks[0].id, 42);
  EXPECT_EQ(v.tracks[1].kind, TrackKind::kGpuStream);
  EXPECT_EQ(v.tracks[2].device, 1);
  EXPECT_EQ(v.tracks[2].id, 9);
  ASSERT_EQ(v.events.size(), 4u);
  const RecordedEvent& scope = v.events[0];
  EXPECT_EQ(scope.kind, EventKind::kScope);
  EXPECT_EQ(scope.start_ns, static_cast<int64_t>(kT0));
  EXPECT_EQ(scope.end_ns, static_cast<int64_t>(kT0 + 30000));
  EXPECT_EQ(scope.FindMetric("loss")->int_value, 3);
  const RecordedEvent& launch = v.events[1];
  EXPECT_EQ(launch.kind, EventKind::kFlow);
  EXPECT_TRUE(launch.instant);
  EXPECT_EQ(launch.flows_out, std::vector<uint64_t>{1});
  const RecordedEvent& kernel = v.events[2];
  EXPECT_EQ(kernel.kind, EventKind::kKernel);
  EXPECT_EQ(kernel.track, 1u);
  EXPECT_EQ(kernel.end_ns - kernel.start_ns, 3008);
  EXPECT_EQ(kernel.call_stack, (std::vector<std::string>{"ROOT", "step", "add_kernel"}));
  EXPECT_EQ(kernel.FindMetric("bytes")->int_value, 1024);
  EXPECT_EQ(kernel.flows_in, std::vector<uint64_t>{1});
  EXPECT_EQ(v.summary.unmatched, 0u);
}

// Our files name only the frames between ROOT and the kernel (formats.md §7.5): the model's
// stack is whole again.
TEST(PerfettoTraceReader, AKernelsImpliedFramesAreAddedBack) {
  PerfettoBuilder b;
  b.SequenceStart(true);
  b.Slice(10, 20, 3, "add_kernel", "kernel", {A{"call_stack_0", true, "step"}});
  b.Slice(30, 40, 3, "k", "kernel");
  b.Slice(50, 60, 4, "s", "scope");
  RecordingVisitor v;
  ASSERT_TRUE(ReadBytes(b.bytes(), v).ok());
  ASSERT_EQ(v.events.size(), 3u);
  EXPECT_EQ(v.events[0].call_stack, (std::vector<std::string>{"ROOT", "step", "add_kernel"}));
  EXPECT_EQ(v.events[1].call_stack, (std::vector<std::string>{"ROOT", "k"}));
  EXPECT_TRUE(v.events[2].call_stack.empty());
}

TEST(PerfettoTraceReader, TritonMainIsRelative) {
  PerfettoBuilder b;
  b.ProcessTrack(1, 0, "Trace");
  b.LaneTrack(1000, 1, "CPU Thread 5");
  b.LaneTrack(1200007, 1, "GPU Stream 7");
  b.SequenceStart(/*realtime=*/false);
  b.Slice(0, 900, 1000, "s", "scope", {A{"call_stack_0", true, "s"}}, {(1ull << 32) + 1});
  b.Slice(1000, 2000, 1200007, "k", "kernel", {}, {}, {(1ull << 32) + 1});
  RecordingVisitor v;
  ASSERT_TRUE(ReadBytes(b.bytes(), v).ok());
  EXPECT_FALSE(v.info.absolute_time);
  ASSERT_EQ(v.events.size(), 2u);
  EXPECT_EQ(v.events[0].flows_out, std::vector<uint64_t>{(1ull << 32) + 1});
  EXPECT_EQ(v.events[1].start_ns, 1000);
  EXPECT_EQ(v.tracks[1].name, "GPU Stream 7");
}

TEST(PerfettoTraceReader, BoottimeWithASnapshotBecomesRealtime) {
  PerfettoBuilder b;
  b.ClockSnapshot(kT0, 1000);
  b.SequenceStart(/*realtime=*/false);  // packets default to BOOTTIME
  b.Slice(1500, 2500, 7, "k", "kernel");
  RecordingVisitor v;
  ASSERT_TRUE(ReadBytes(b.bytes(), v).ok());
  EXPECT_TRUE(v.info.absolute_time);
  EXPECT_EQ(v.events[0].start_ns, static_cast<int64_t>(kT0 + 500));
  EXPECT_EQ(v.tracks[0].name, "Track 7");
}

TEST(PerfettoTraceReader, AnEmptyFileIsAnEmptyTrace) {
  PerfettoBuilder b;
  b.ClockSnapshot(kT0, 1);
  RecordingVisitor v;
  ASSERT_TRUE(ReadBytes(b.bytes(), v).ok());
  EXPECT_EQ(v.begins, 1);
  EXPECT_EQ(v.ends, 1);
  EXPECT_TRUE(v.events.empty());
}

TEST(PerfettoTraceReader, UnendedAndUnbegunSlicesAreCounted) {
  PerfettoBuilder b;
  b.SequenceStart(true);
  b.Event(5, pf::event::kTypeSliceEnd, 3, "", "");
  b.Event(6, pf::event::kTypeSliceBegin, 3, "open", "scope");
  RecordingVisitor v;
  ASSERT_TRUE(ReadBytes(b.bytes(), v).ok());
  EXPECT_TRUE(v.events.empty());
  EXPECT_EQ(v.summary.unmatched, 2u);
}

TEST(PerfettoTraceReader, EveryTruncationIsOneErrorLine) {
  const std::string trace = OurTrace();
  for (size_t n = 1; n < trace.size(); ++n) {
    RecordingVisitor v;
    const Status s = ReadBytes(trace.substr(0, n), v);
    if (s.ok()) continue;  // a cut between packets is a shorter valid trace
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("'t'"), std::string::npos) << s.message();
  }
}

TEST(PerfettoTraceReader, DamagedPacketsGiveAClearError) {
  std::string unknown_iid;
  {
    proto::NestedMessage packet(unknown_iid, pf::kTracePacket);
    proto::AppendUint(unknown_iid, pf::packet::kTimestamp, 5);
    proto::NestedMessage event(unknown_iid, pf::packet::kTrackEvent);
    proto::AppendUint(unknown_iid, pf::event::kType, pf::event::kTypeInstant);
    proto::AppendUint(unknown_iid, pf::event::kNameIid, 9);
  }
  const std::pair<std::string, std::string> cases[] = {
      {unknown_iid, "event name iid 9 is not interned (packet at byte 0)"},
      {std::string("\x0a\x05\x08", 3), "ends early"},
      {std::string("\x0a\x02\x0b\x00", 4), "a malformed packet"},
      {std::string("\x0a\x7f", 2), "ends early"},
      {std::string("\x0a\x80\x80\x80\x80\x80\x80\x01", 8), "a packet of"},
  };
  for (const auto& [bytes, expected] : cases) {
    RecordingVisitor v;
    const Status s = ReadBytes(bytes, v);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find(expected), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace proton::viewer::traces
