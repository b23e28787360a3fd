// Tests of a database of many files (viewer.md §11.13): one union of frames, one row per
// frame and file, the file facts from the names, the checks of --merge, column names that
// SQLite would take as the same, and an export that fails leaving the old file as it was.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "viewer/sql/events_writer.h"
#include "viewer/sql/profile_db.h"
#include "viewer/sql/testing/sql_test_files.h"

namespace proton::viewer {
namespace {

using testing::KernelProfile;
using testing::QueryText;
using testing::TempFolder;

const std::string kEmptyProfile =
    R"([{"frame":{"name":"ROOT","type":"function"},"metrics":{},"children":[]},{}])";

Result<SqlDatabase> Build(const std::vector<std::string>& files,
                          const std::vector<std::string>& items = {}) {
  PROTON_ASSIGN_OR_RETURN(SqlDatabase db, SqlDatabase::Open(":memory:"));
  PROTON_RETURN_IF_ERROR(BuildProfileDb(db, files, items));
  return db;
}

class Ranks : public ::testing::Test {
 protected:
  void SetUp() override {
    files_ = {dir_.Write("run.rank0.hatchet", KernelProfile("fwd", "k1", 10, 1)),
              dir_.Write("run.rank1.part_3.hatchet", KernelProfile("fwd", "k1", 30, 2, "90", "1")),
              dir_.Write("run.pid77.hatchet", KernelProfile("bwd", "k2", 5, 1)),
              dir_.Write("run.rank2.hatchet", kEmptyProfile)};
  }
  TempFolder dir_;
  std::vector<std::string> files_;
};

TEST_F(Ranks, OneUnionOfFramesAndOneRowPerFrameAndFile) {
  Result<SqlDatabase> db = Build(files_);
  ASSERT_TRUE(db.ok()) << db.status().message();
  EXPECT_EQ(QueryText(*db,
                      "SELECT group_concat(name || ':' || kind || ':' || depth, ' ') FROM "
                      "(SELECT * FROM frames ORDER BY print_order)"),
            "ROOT:root:0 bwd:scope:1 k2:kernel:2 fwd:scope:1 k1:kernel:2");
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM frame_values"), "9");  // 3 + 3 + 3 + 0
  EXPECT_EQ(QueryText(*db,
                      "SELECT group_concat(v.\"time (ns)\", ',') FROM frame_values v JOIN "
                      "frames f USING (frame_id) WHERE f.name = 'k1' ORDER BY v.file_id"),
            "10,30");
  EXPECT_EQ(QueryText(*db,
                      "SELECT \"time (ns)\" FROM frame_rows WHERE name = 'ROOT' AND "
                      "rank = 1"),
            "30");
}

TEST_F(Ranks, FileFactsComeFromTheNames) {
  Result<SqlDatabase> db = Build(files_);
  ASSERT_TRUE(db.ok()) << db.status().message();
  EXPECT_EQ(QueryText(*db,
                      "SELECT group_concat(ifnull(rank, '-') || '/' || ifnull(phase, '-') || "
                      "'/' || ifnull(pid, '-') || '/' || ifnull(context, '-') || '/' || "
                      "frames, ' ') FROM files"),
            "0/-/-/scopes/3 1/3/-/scopes/3 -/-/77/scopes/3 2/-/-/-/0");
  EXPECT_EQ(QueryText(*db,
                      "SELECT group_concat(file_id || ':' || device_index || ':' || arch, ' ') "
                      "FROM devices"),
            "0:0:90 1:1:90 2:0:90");
}

TEST_F(Ranks, NamedAggregatesSeeEveryFile) {
  Result<SqlDatabase> db = Build(files_, {"time/us"});
  ASSERT_TRUE(db.ok()) << db.status().message();
  EXPECT_EQ(QueryText(*db,
                      "SELECT group_concat(\"time/us\", ',') FROM frame_rows WHERE "
                      "name = 'k1'"),
            "0.01,0.03");
  EXPECT_EQ(QueryText(*db, "SELECT derived || ':' || files FROM metrics WHERE metric = 'time/us'"),
            "1:3");
  EXPECT_EQ(QueryText(*db,
                      "SELECT files || ':' || inclusive_files FROM metrics WHERE "
                      "metric = 'count'"),
            "3:3");
}

TEST_F(Ranks, DifferentDevicesAreRefusedAsMergeRefusesThem) {
  files_.push_back(dir_.Write("run.rank3.hatchet", KernelProfile("fwd", "k1", 1, 1, "80")));
  Result<SqlDatabase> db = Build(files_);
  ASSERT_FALSE(db.ok());
  EXPECT_NE(db.status().message().find("' with '"), std::string::npos) << db.status().message();
  EXPECT_NE(db.status().message().find("recorded on different devices"), std::string::npos);
}

TEST_F(Ranks, ATraceIsAFileOfEventsAndMissingInputsKeepTheViewersErrors) {
  const std::string trace = dir_.Write("t.rank5.chrome_trace", R"({"traceEvents":[]})");
  Result<SqlDatabase> db = Build({files_[0], trace});
  ASSERT_TRUE(db.ok()) << db.status().message();
  EXPECT_EQ(QueryText(*db,
                      "SELECT kind || ':' || rank || ':' || events FROM files WHERE "
                      "file_id = 1"),
            "chrome_trace:5:0");
  Result<SqlDatabase> missing = Build({files_[0], dir_.File("missing.hatchet")});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("No such file"), std::string::npos);
}

TEST(ProfileDbColumns, NamesSqliteWouldConfuseGetANumber) {
  TempFolder dir;
  const std::string file =
      dir.Write("c.hatchet",
                R"([{"frame":{"name":"ROOT","type":"function"},"metrics":{"count":0},"children":[)"
                R"({"frame":{"name":"k","type":"function"},"children":[],)"
                R"("metrics":{"count":2,"Count":5,"depth":7,"a\nb":1}}]},{}])");
  Result<SqlDatabase> db = Build({file});
  ASSERT_TRUE(db.ok()) << db.status().message();
  EXPECT_EQ(QueryText(*db,
                      "SELECT value_column || '|' || exclusive_column FROM metrics WHERE "
                      "metric = 'Count'"),
            "Count #2|Count (exc) #2");
  EXPECT_EQ(QueryText(*db, "SELECT \"Count #2\" FROM frame_values WHERE frame_id = 1"), "5");
  EXPECT_EQ(QueryText(*db, "SELECT value_column FROM metrics WHERE metric = 'depth'"), "depth #2");
  EXPECT_EQ(QueryText(*db, "SELECT \"a\\nb\" FROM frame_values WHERE frame_id = 1"), "1");
}

std::string Contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_F(Ranks, AnExportReplacesTheFileOnlyWhenComplete) {
  const std::string out = dir_.Write("out.sqlite", "old contents");
  const size_t entries = dir_.Entries();
  Status failed = ExportSqlite(out, {files_[0], dir_.File("missing.hatchet")}, {});
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(Contents(out), "old contents");
  EXPECT_EQ(dir_.Entries(), entries);  // no temporary file left behind
  ASSERT_TRUE(ExportSqlite(out, files_, {}).ok());
  Result<SqlDatabase> db = SqlDatabase::Open(out);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM files"), "4");
  EXPECT_EQ(dir_.Entries(), entries);
}

TEST_F(Ranks, EventsGoInWithTheirDurationsForTheTraceReader) {
  Result<SqlDatabase> db = Build(files_);
  ASSERT_TRUE(db.ok()) << db.status().message();
  const DbEvent events[] = {{.kind = "kernel",
                             .name = "k1",
                             .frame_id = 2,
                             .start_ns = 100,
                             .end_ns = 160,
                             .stream = 7,
                             .lane = "GPU Stream 7",
                             .correlation = 1},
                            {.kind = "launch",
                             .name = "k1",
                             .start_ns = 90,
                             .end_ns = 91,
                             .thread = 4242,
                             .correlation = 1},
                            {.kind = "scope",
                             .name = "fwd",
                             .start_ns = 80,
                             .end_ns = 200,
                             .thread = 4242,
                             .metrics = R"({"bytes":8})"}};
  ASSERT_TRUE(WriteEvents(*db, 1, events).ok());
  EXPECT_EQ(QueryText(*db,
                      "SELECT group_concat(kind || ':' || duration_ns, ' ') FROM "
                      "(SELECT * FROM events ORDER BY start_ns)"),
            "scope:120 launch:1 kernel:60");
  // A launch and its kernel meet through the correlation index.
  EXPECT_EQ(QueryText(*db,
                      "SELECT k.start_ns - l.start_ns FROM events k JOIN events l USING "
                      "(correlation) WHERE k.kind = 'kernel' AND l.kind = 'launch'"),
            "10");
  EXPECT_EQ(QueryText(*db,
                      "SELECT json_extract(metrics, '$.bytes') FROM events WHERE "
                      "kind = 'scope'"),
            "8");
}

TEST_F(Ranks, ADeviceOrFifoIsNoDatabase) {
  const Status status = ExportSqlite("/dev/null", files_, {});
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "cannot write '/dev/null': an SQLite database must be a regular file");
}

}  // namespace
}  // namespace proton::viewer
