// Tests of the profile database (formats.md §8): its schema, its values against the viewer's
// printed tree for every profile of tests/refdata, many ranks in one database, the checks
// --merge makes, and an export that fails leaving the old file as it was.
#include "viewer/sql/profile_db.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "format/profile_reader.h"
#include "util/test_support.h"
#include "viewer/cli/view_input.h"
#include "viewer/common/json_text.h"
#include "viewer/sql/sql_schema.h"
#include "viewer/sql/testing/sql_test_files.h"

namespace proton::viewer {
namespace {

using testing::QueryText;

const std::string kRefdata = std::string(PROTON_SOURCE_DIR) + "/tests/refdata";

SqlDatabase MemoryDb(const std::vector<std::string>& files,
                     const std::vector<std::string>& items = {}) {
  Result<SqlDatabase> db = SqlDatabase::Open(":memory:");
  EXPECT_TRUE(db.ok());
  const Status built = BuildProfileDb(*db, files, items);
  EXPECT_TRUE(built.ok()) << built.message();
  return std::move(db).value();
}

TEST(ProfileDb, SchemaHasEveryTableViewAndTheCommonColumns) {
  SqlDatabase db = MemoryDb({kRefdata + "/ref_hook.hatchet"});
  EXPECT_EQ(QueryText(db, "PRAGMA user_version"), std::to_string(kProfileSchemaVersion));
  for (const char* name : {"files", "devices", "frames", "names", "frame_values", "metrics",
                           "events", "frame_paths", "frame_rows", "metric_values"}) {
    EXPECT_EQ(QueryText(db, std::string("SELECT count(*) FROM sqlite_schema WHERE name = '") +
                                name + "'"),
              "1")
        << name;
  }
  for (const char* column : {"time (ns)", "time (ns) (exc)", "count (exc)", "bytes (exc)",
                             "flops64 (exc)", "device_id", "device_type"}) {
    EXPECT_EQ(QueryText(db, std::string("SELECT count(*) FROM pragma_table_info('frame_values') "
                                        "WHERE name = '") +
                                column + "'"),
              "1")
        << column;
  }
  EXPECT_EQ(QueryText(db, "SELECT count(*) FROM events"), "0");  // tree profiles: no events
  EXPECT_EQ(QueryText(db,
                      "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND "
                      "name IN ('frames_parent', 'frame_values_frame', 'events_file_start')"),
            "3");
}

// Per frame path (JSON list), per metric column: the database's values, NaN for NULL.
std::map<std::string, std::map<std::string, double>> DbValues(
    SqlDatabase& db, const std::vector<std::string>& keys) {
  std::map<std::string, std::map<std::string, double>> out;
  for (const std::string& key : keys) {
    Result<SqlStatement> s = db.Prepare("SELECT p.path, v." + QuoteSqlName(key) +
                                        " FROM frame_values v JOIN frame_paths p USING (frame_id)");
    EXPECT_TRUE(s.ok()) << s.status().message();
    while (s.ok() && *s->Step()) {
      const char* path = reinterpret_cast<const char*>(sqlite3_column_text(s->get(), 0));
      const bool null = sqlite3_column_type(s->get(), 1) == SQLITE_NULL;
      out[path][key] = null ? kMissing : sqlite3_column_double(s->get(), 1);
    }
  }
  return out;
}

void ExpectValuesOfPrintedTree(const std::string& path) {
  const ProfileTree read = test::ExpectValue(format::LoadProfile(path));
  std::vector<std::string> keys;
  for (const RawColumn& c : read.columns()) {
    if (c.numeric()) keys.push_back(c.key);
  }
  ViewOptions view;
  view.metrics = keys;
  const Prepared printed = test::ExpectValue(Prepare(path, view));
  SqlDatabase db = MemoryDb({path});
  EXPECT_EQ(QueryText(db, "SELECT count(*) FROM frames"), std::to_string(printed.tree.size()));
  const auto values = DbValues(db, keys);
  for (NodeId n = 0; n < printed.tree.size(); ++n) {
    std::string frame;
    AppendJsonPath(frame, FramePath(printed.tree, n));
    ASSERT_EQ(values.count(frame), 1u) << path << ": no row for " << frame;
    for (size_t c = 0; c < keys.size(); ++c) {
      const double want = printed.columns[c].Value(printed.tree, n);
      const double got = values.at(frame).at(keys[c]);
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(got)) << path << " " << frame << " " << keys[c];
      else
        EXPECT_EQ(got, want) << path << " " << frame << " " << keys[c];
    }
  }
}

TEST(ProfileDb, ValuesAreThePrintedTreesOfEveryRefdataProfile) {
  size_t profiles = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kRefdata)) {
    if (entry.path().extension() != ".hatchet") continue;
    ExpectValuesOfPrintedTree(entry.path().string());
    ++profiles;
  }
  EXPECT_GE(profiles, 10u);
}

TEST(ProfileDb, ExclusiveColumnsHoldTheFramesOwnValues) {
  SqlDatabase db = MemoryDb({kRefdata + "/ref_hook.hatchet"});
  // add_phase holds no kernel metric itself; its value column sums its kernel.
  EXPECT_EQ(QueryText(db,
                      "SELECT v.\"time (ns)\" || '/' || ifnull(v.\"time (ns) (exc)\", 'NULL') "
                      "FROM frame_values v JOIN frames f USING (frame_id) "
                      "WHERE f.name = 'add_phase'"),
            "45119/NULL");
  EXPECT_EQ(QueryText(db,
                      "SELECT f.kind || ' ' || f.depth || ' ' || n.family FROM frames f JOIN "
                      "names n USING (name) WHERE f.name = 'add_1048576' AND f.depth = 2"),
            "kernel 2 add");
  EXPECT_EQ(QueryText(db,
                      "SELECT count(*) FROM names WHERE demangled LIKE 'void at::native::%' "
                      "AND family = 'at::native::(anonymous namespace)::"
                      "distribution_elementwise_grid_stride_kernel'"),
            "2");
  EXPECT_EQ(QueryText(db, "SELECT count(*) FROM names"), "4");  // the kernels' names
  EXPECT_EQ(QueryText(db, "SELECT count(*) FROM frame_rows WHERE family = 'add'"), "2");
}

}  // namespace
}  // namespace proton::viewer
