// Tests of traces in the profile database (formats.md §8): one events row per event the
// reader gives, kernel counts that agree with the tree profile of the same run, the bundled
// event queries, and a bad trace that leaves an old database as it was.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "viewer/sql/named_queries.h"
#include "viewer/sql/profile_db.h"
#include "viewer/sql/testing/sql_test_files.h"
#include "viewer/traces/testing/recording_visitor.h"
#include "viewer/traces/trace_reader.h"

namespace proton::viewer {
namespace {

using testing::QueryText;
using testing::TempFolder;

std::string RefTrace(const std::string& name) {
  return std::string(PROTON_SOURCE_DIR) + "/tests/refdata/h200-traces/" + name;
}

Result<SqlDatabase> Build(const std::vector<std::string>& files) {
  PROTON_ASSIGN_OR_RETURN(SqlDatabase db, SqlDatabase::Open(":memory:"));
  PROTON_RETURN_IF_ERROR(BuildProfileDb(db, files, {}));
  return db;
}

// "name:start:end" of every event, in the reader's order.
std::string ReaderEvents(const std::string& path) {
  traces::testing::RecordingVisitor v;
  EXPECT_TRUE(traces::ReadTraceFile(path, v).ok());
  std::string out;
  for (const traces::testing::RecordedEvent& e : v.events) {
    out += e.name + ":" + std::to_string(e.start_ns) + ":" + std::to_string(e.end_ns) + "\n";
  }
  return out;
}

TEST(TraceEvents, RowsAreTheReadersEvents) {
  for (const char* name :
       {"workload_json.chrome_trace", "workload_pb.perfetto_trace", "phases_pb.perfetto_trace"}) {
    Result<SqlDatabase> db = Build({RefTrace(name)});
    ASSERT_TRUE(db.ok()) << db.status().message();
    EXPECT_EQ(QueryText(*db,
                        "SELECT group_concat(name || ':' || start_ns || ':' || end_ns || "
                        "char(10), '') FROM (SELECT * FROM events ORDER BY event_id)"),
              ReaderEvents(RefTrace(name)))
        << name;
    EXPECT_EQ(QueryText(*db, "SELECT events = (SELECT count(*) FROM events) FROM files"), "1");
  }
}

// Per kernel name: launches in the tree profile, kernel rows in each trace.
TEST(TraceEvents, KernelCountsAgreeWithTheTreeProfile) {
  Result<SqlDatabase> db =
      Build({RefTrace("workload_tree.hatchet"), RefTrace("workload_json.chrome_trace"),
             RefTrace("workload_pb.perfetto_trace")});
  ASSERT_TRUE(db.ok()) << db.status().message();
  EXPECT_EQ(QueryText(*db, "SELECT group_concat(kind, ',') FROM files ORDER BY file_id"),
            "tree,chrome_trace,perfetto_trace");
  const std::string tree = QueryText(
      *db,
      "SELECT group_concat(name || '=' || n, ' ') FROM (SELECT f.name, SUM(v.\"count (exc)\") "
      "AS n FROM frame_values v JOIN frames f USING (frame_id) WHERE f.kind = 'kernel' "
      "GROUP BY f.name ORDER BY f.name)");
  EXPECT_NE(tree, "");
  for (const char* file_id : {"1", "2"}) {
    EXPECT_EQ(QueryText(*db, std::string("SELECT group_concat(name || '=' || n, ' ') FROM "
                                         "(SELECT name, count(*) AS n FROM events WHERE "
                                         "kind = 'kernel' AND file_id = ") +
                                 file_id + " GROUP BY name ORDER BY name)"),
              tree)
        << file_id;
  }
}

TEST(TraceEvents, LaunchesMeetTheirKernelsAndTheNamedQueriesRun) {
  for (const char* name : {"workload_json.chrome_trace", "workload_pb.perfetto_trace"}) {
    Result<SqlDatabase> db = Build({RefTrace(name)});
    ASSERT_TRUE(db.ok()) << db.status().message();
    EXPECT_EQ(QueryText(*db, "SELECT sum(launches) FROM (" +
                                 std::string(FindNamedQuery("launch_latency")->sql) + ")"),
              "46")
        << name;
    EXPECT_EQ(QueryText(*db, "SELECT sum(launches) FROM (" +
                                 std::string(FindNamedQuery("kernel_durations")->sql) + ")"),
              "46")
        << name;
  }
}

std::string Contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(TraceEvents, ABadTraceIsOneLineAndKeepsTheOldDatabase) {
  TempFolder dir;
  const std::string out = dir.Write("out.sqlite", "old contents");
  const std::string bad = dir.Write(
      "bad.chrome_trace", R"({"traceEvents":[{"ph":"X","name":"k","ts":1,"dur":2,"pid":0,)");
  const Status failed = ExportSqlite(out, {RefTrace("workload_pb.perfetto_trace"), bad}, {});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.message().find('\n'), std::string::npos) << failed.message();
  EXPECT_NE(failed.message().find(bad), std::string::npos) << failed.message();
  EXPECT_EQ(Contents(out), "old contents");
}

}  // namespace
}  // namespace proton::viewer
