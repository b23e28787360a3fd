// A written .perfetto_trace decoded by protoc against Perfetto's schema
// (tests/perfetto/perfetto_trace_subset.proto, Perfetto's field numbers and types): every field
// we write is a known field of the right wire type (an unknown or mistyped one prints as a bare
// field number), and the decoded text holds the layout of formats.md §7. Skipped, saying so,
// only when protoc is not installed (Debian: protobuf-compiler).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <regex>

#include "core/dump/perfetto_trace_writer.h"
#include "core/testing/test_util.h"

namespace proton {
namespace {

namespace fs = std::filesystem;

std::string WriteSampleTrace(const std::string& path) {
  TraceData data;
  ScopeEventRef scope = data.BeginScope(42, "phase", 1000);
  EXPECT_TRUE(data.AddScopeEventMetrics(scope, {{"loss", 2.5}, {"bytes", int64_t{-8}}}).ok());
  data.EndScope(scope, 4000);
  NodeRef k = data.Child(data.Child(data.Root(), "phase"), "k");
  EXPECT_TRUE(data.AddMetrics(k, {{"v", std::vector<int64_t>{1, 2}}}).ok());
  KernelRecord r;
  r.stream_id = 7;
  for (auto [correlation, start, end, graph] :
       {std::tuple{1, 2000, 2250, 0}, std::tuple{2, 3000, 3500, 9},
        std::tuple{3, 2100, 2400, 0}}) {  // overlaps
    r.correlation_id = static_cast<uint64_t>(correlation);
    r.start_ns = static_cast<uint64_t>(start);
    r.end_ns = static_cast<uint64_t>(end);
    r.graph_id = static_cast<uint32_t>(graph);
    r.launch_thread = correlation < 3 ? 42 : 0;  // the correlator's stamps of launches 1 and 2
    r.launch_ns = correlation == 1 ? 1500 : correlation == 2 ? 1600 : 0;
    data.AddKernel(k, r, false);
  }
  std::string out;
  data.WithLock([&] { WritePerfettoTrace(data, out); });
  FILE* f = std::fopen(path.c_str(), "wb");
  EXPECT_NE(f, nullptr);
  std::fwrite(out.data(), 1, out.size(), f);
  std::fclose(f);
  return out;
}

// protoc's text for `file`, or "" with `ok` false when it failed.
std::string Decode(const std::string& file, bool& ok) {
  std::string command = std::string(PROTON_PROTOC) + " --proto_path=" + PROTON_PERFETTO_PROTO_DIR +
                        " --decode=perfetto.protos.Trace perfetto_trace_subset.proto < " + file +
                        " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string text;
  char buf[4096];
  size_t n;
  while (pipe != nullptr && (n = std::fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
  ok = pipe != nullptr && pclose(pipe) == 0;
  return text;
}

TEST(PerfettoProtoc, DecodesWithPerfettosSchema) {
  if (std::string(PROTON_PROTOC).empty() || access(PROTON_PROTOC, X_OK) != 0) {
    GTEST_SKIP() << "protoc not found at configure time: install protobuf-compiler "
                    "(scripts/install-deps.sh) to check .perfetto_trace against the schema";
  }
  std::string dir = test::TempDir();
  WriteSampleTrace(dir + "/t.perfetto_trace");
  bool ok = false;
  std::string text = Decode(dir + "/t.perfetto_trace", ok);
  fs::remove_all(dir);
  ASSERT_TRUE(ok) << text;
  // An unknown field, or a known one with another wire type, prints as "<number>: ...".
  EXPECT_FALSE(std::regex_search(text, std::regex("(^|\n) *[0-9]+ *[:{]"))) << text;
  for (const char* expected : {"primary_trace_clock: BUILTIN_CLOCK_REALTIME",
                               "clock_id: 6",
                               "sequence_flags: 3",
                               "trace_packet_defaults {\n    timestamp_clock_id: 1\n  }",
                               "child_ordering: EXPLICIT",
                               "name: \"Graph: Stream 7\"",
                               "sibling_order_rank: 2",
                               "type: TYPE_SLICE_BEGIN",
                               "type: TYPE_SLICE_END",
                               "type: TYPE_INSTANT",
                               "flow_ids_old: 1",
                               "terminating_flow_ids_old: 1",
                               "string_value_iid: ",
                               "double_value: 2.5",
                               "int_value: -8",
                               "array_values {",
                               "uint_value: 300",
                               "debug_annotation_string_values {",
                               "str: \"phase\"",
                               "event_categories {"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  }
}

}  // namespace
}  // namespace proton
