// Tests of the .chrome_trace writer: the reference traces re-serialised byte for byte, stream
// order, empty trace.
#include "core/dump/chrome_trace_writer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/test/json_reader.h"
#include "core/test/test_util.h"

namespace proton {
namespace {

std::string Write(TraceData& data) {
  std::string out;
  data.WithLock([&] { WriteChromeTrace(data, out); });
  return out;
}

void AddEvent(TraceData& data, const std::vector<std::string>& stack, uint64_t start,
              uint64_t end, uint32_t stream) {
  NodeRef n = data.Root();
  for (size_t i = 1; i < stack.size(); ++i) n = data.Child(n, stack[i]);
  KernelRecord r;
  r.start_ns = start;
  r.end_ns = end;
  r.stream_id = stream;
  data.AddKernel(n, r, false);
}

class ChromeTraceRef : public testing::TestWithParam<const char*> {};

TEST_P(ChromeTraceRef, ReserialisesByteForByte) {
  std::string text = test::ReadFile(test::RefPath(GetParam()));
  test::Json doc = test::ParseOrDie(text);
  TraceData data;
  const uint64_t base = 1'000'000'000;
  for (const test::Json& e : doc["traceEvents"].array) {
    std::vector<std::string> stack;
    for (const test::Json& f : e["args"]["call_stack"].array) stack.push_back(f.s);
    auto ts = static_cast<uint64_t>(std::llround(e["ts"].d * 1000));
    auto dur = static_cast<uint64_t>(std::llround(e["dur"].d * 1000));
    AddEvent(data, stack, base + ts, base + ts + dur, static_cast<uint32_t>(e["tid"].i));
  }
  EXPECT_EQ(Write(data), text);
}

INSTANTIATE_TEST_SUITE_P(Refdata, ChromeTraceRef,
                         testing::Values("ref_trace.chrome_trace", "gpt2_trace.chrome_trace"));

TEST(ChromeTrace, EmptyTraceIsEmptyFile) {
  TraceData data;
  EXPECT_EQ(Write(data), "");
}

TEST(ChromeTrace, StreamsAscendingThenStartTimeOneObject) {
  TraceData data;
  AddEvent(data, {"ROOT", "k13a"}, 5000, 6000, 13);
  AddEvent(data, {"ROOT", "s", "k7a"}, 2000, 2500, 7);
  AddEvent(data, {"ROOT", "k13b"}, 1000, 1500, 13);
  AddEvent(data, {"ROOT", "k7b"}, 9000, 9001, 7);
  EXPECT_EQ(Write(data),
            "{\"displayTimeUnit\":\"us\",\"traceEvents\":["
            "{\"args\":{\"call_stack\":[\"ROOT\",\"s\",\"k7a\"]},\"cat\":\"kernel\",\"dur\":0.5,"
            "\"name\":\"k7a\",\"ph\":\"X\",\"tid\":7,\"ts\":1.0},"
            "{\"args\":{\"call_stack\":[\"ROOT\",\"k7b\"]},\"cat\":\"kernel\",\"dur\":0.001,"
            "\"name\":\"k7b\",\"ph\":\"X\",\"tid\":7,\"ts\":8.0},"
            "{\"args\":{\"call_stack\":[\"ROOT\",\"k13b\"]},\"cat\":\"kernel\",\"dur\":0.5,"
            "\"name\":\"k13b\",\"ph\":\"X\",\"tid\":13,\"ts\":0.0},"
            "{\"args\":{\"call_stack\":[\"ROOT\",\"k13a\"]},\"cat\":\"kernel\",\"dur\":1.0,"
            "\"name\":\"k13a\",\"ph\":\"X\",\"tid\":13,\"ts\":4.0}]}\n");
}

}  // namespace
}  // namespace proton
