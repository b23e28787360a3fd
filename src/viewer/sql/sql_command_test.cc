// Tests of --sql (viewer.md §11.13): the aligned table, the result files, the named
// queries, and one clear error for every kind of bad query.
#include "viewer/sql/sql_command.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "viewer/sql/named_queries.h"
#include "viewer/sql/testing/sql_test_files.h"

namespace proton::viewer {
namespace {

using testing::KernelProfile;
using testing::TempFolder;

const std::string kHook = std::string(PROTON_SOURCE_DIR) + "/tests/refdata/ref_hook.hatchet";

// RunSql's printed output, or "error: <message>".
std::string RunQuery(const SqlRequest& request) {
  const int fd = ::memfd_create("sql-test", MFD_CLOEXEC);
  Status status;
  {
    OutputBuffer out(fd);
    status = RunSql(request, out);
  }
  std::string text(static_cast<size_t>(::lseek(fd, 0, SEEK_END)), '\0');
  if (!text.empty()) {
    EXPECT_EQ(::pread(fd, text.data(), text.size(), 0), static_cast<ssize_t>(text.size()));
  }
  ::close(fd);
  return status.ok() ? text : "error: " + status.message();
}

std::string Contents(const std::string& path) {
  std::stringstream text;
  text << std::ifstream(path, std::ios::binary).rdbuf();
  return text.str();
}

TEST(SqlCommand, AlignedTableRightAlignsNumbersAndEscapesText) {
  const std::string sql =
      "SELECT 'a' AS name, 1 AS n, NULL AS x UNION ALL SELECT 'b' || char(10) || 'c', 22, 0.5";
  EXPECT_EQ(RunQuery({sql, {kHook}, {}, ""}),
            "name   n    x\n"
            "----  --  ---\n"
            "a      1     \n"
            "b\\nc  22  0.5\n");
}

TEST(SqlCommand, ResultFilesKeepEveryDigit) {
  TempFolder dir;
  const std::string sql = "SELECT 'x,y' AS s, 0.1 + 0.2 AS r, NULL AS z, 7 AS i";
  EXPECT_EQ(RunQuery({sql, {kHook}, {}, dir.File("r.csv")}), "");  // nothing printed
  EXPECT_EQ(Contents(dir.File("r.csv")), "s,r,z,i\n\"x,y\",0.30000000000000004,,7\n");
  EXPECT_EQ(RunQuery({sql, {kHook}, {}, dir.File("r.jsonl")}), "");
  EXPECT_EQ(Contents(dir.File("r.jsonl")),
            "{\"s\":\"x,y\",\"r\":0.30000000000000004,\"z\":null,\"i\":7}\n");
}

TEST(SqlCommand, ListShowsEveryNamedQueryWithItsSql) {
  const std::string listed = RunQuery({"list", {}, {}, ""});
  for (const NamedQuery& q : NamedQueries()) {
    EXPECT_NE(listed.find(std::string(q.name) + ": " + std::string(q.description)),
              std::string::npos)
        << q.name;
  }
  EXPECT_NE(listed.find("    SELECT f.name AS kernel,"), std::string::npos);
}

TEST(SqlCommand, TheSpecShowsEveryNamedQuerysSql) {
  const std::string spec = Contents(std::string(PROTON_SOURCE_DIR) + "/docs/spec/viewer.md");
  ASSERT_FALSE(spec.empty());
  for (const NamedQuery& q : NamedQueries()) {
    // Built by appending (GCC 12's -Wrestrict misfires on "`" + std::string(...)).
    std::string heading = "`";
    heading.append(q.name).append("`: ");
    std::string block = "```sql\n";
    block.append(q.sql).append("\n```");
    EXPECT_NE(spec.find(heading), std::string::npos) << q.name;
    EXPECT_NE(spec.find(block), std::string::npos) << q.name;
  }
}

TEST(SqlCommand, EveryNamedQueryRunsOnOneAndOnManyFiles) {
  TempFolder dir;
  const std::vector<std::string> ranks = {
      dir.Write("r.rank0.hatchet", KernelProfile("step", "k", 100, 4)),
      dir.Write("r.rank1.hatchet", KernelProfile("step", "k", 300, 4))};
  for (const NamedQuery& q : NamedQueries()) {
    EXPECT_EQ(RunQuery({std::string(q.name), {kHook}, {}, ""}).rfind("error", 0), std::string::npos)
        << q.name;
    EXPECT_EQ(RunQuery({std::string(q.name), ranks, {}, ""}).rfind("error", 0), std::string::npos)
        << q.name;
  }
  const std::string imbalance = RunQuery({"imbalance", ranks, {}, ""});
  EXPECT_NE(imbalance.find("1.5"), std::string::npos) << imbalance;  // 300 / mean 200
  EXPECT_NE(imbalance.find("r.rank1.hatchet"), std::string::npos) << imbalance;
  const std::string top = RunQuery({"top_kernels", ranks, {}, ""});
  EXPECT_NE(top.find("\nk              8   0.0004    0.05     100.0      2\n"), std::string::npos)
      << top;
}

TEST(SqlCommand, BadQueriesAreOneLineErrors) {
  // Syntax is checked before any FILE is read: the missing file is never reported.
  EXPECT_EQ(RunQuery({"SELEC 1", {"/no/such.hatchet"}, {}, ""}),
            "error: SQL: near \"SELEC\": syntax error");
  EXPECT_EQ(RunQuery({"SELECT nosuch FROM frames", {kHook}, {}, ""}),
            "error: SQL: no such column: nosuch");
  EXPECT_EQ(RunQuery({"SELECT 1; SELECT 2", {kHook}, {}, ""}),
            "error: --sql runs one statement, and the query has more");
  EXPECT_EQ(RunQuery({"DELETE FROM frames", {kHook}, {}, ""}),
            "error: --sql runs queries only, and this statement would change the database");
  EXPECT_EQ(RunQuery({"-- nothing", {kHook}, {}, ""}), "error: SQL: the query has no statement");
  EXPECT_EQ(RunQuery({"top", {kHook}, {}, ""}),
            "error: unknown named query 'top' (proton-viewer --sql list shows them)");
  EXPECT_EQ(RunQuery({"SELECT 'a\nb' +", {kHook}, {}, ""}), "error: SQL: incomplete input");
}

TEST(SqlCommand, QueryOnTheExportedDatabase) {
  TempFolder dir;
  const std::string db = dir.File("p.sqlite");
  EXPECT_EQ(RunQuery({"SELECT count(*) AS n FROM frames", {kHook}, {}, db}), "n\n-\n8\n");
  EXPECT_EQ(Contents(db).substr(0, 15), "SQLite format 3");
  // A failing query writes no database.
  const std::string other = dir.File("q.sqlite");
  EXPECT_EQ(RunQuery({"SELECT nosuch FROM frames", {kHook}, {}, other}).rfind("error", 0), 0u);
  EXPECT_FALSE(std::ifstream(other).good());
}

}  // namespace
}  // namespace proton::viewer
