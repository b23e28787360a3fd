// Tests of the run record, the rename rule and the final line (profiler.md §2.9).
#include "launcher/outputs.h"

#include <gtest/gtest.h>

#include <set>

namespace proton::launcher {
namespace {

TEST(RunRecords, Parse) {
  std::vector<FileRecord> records = ParseFileRecords(
      "root\t10\t/w/p.hatchet\nbad line\nrank\tx\t/a\npid\t12\t/w/p.pid12.hatchet\n"
      "other\t1\t/b\npid\t13\t\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].kind, "root");
  EXPECT_EQ(records[0].pid, 10);
  EXPECT_EQ(records[0].path, "/w/p.hatchet");
  EXPECT_EQ(records[1].kind, "pid");
  EXPECT_EQ(records[1].path, "/w/p.pid12.hatchet");
}

OutputPlan PlanFor(const std::vector<FileRecord>& records, std::set<std::string> existing) {
  return PlanOutputs(records, "/w/p",
                     [&](const std::string& path) { return existing.count(path) > 0; });
}

TEST(Outputs, RootOnly) {
  OutputPlan plan = PlanFor({{"root", 1, "/w/p.hatchet"}}, {"/w/p.hatchet"});
  EXPECT_TRUE(plan.renames.empty());
  EXPECT_EQ(plan.files, std::vector<std::string>{"/w/p.hatchet"});
  EXPECT_TRUE(plan.only_base_file);
}

TEST(Outputs, ChildrenAndOrder) {
  OutputPlan plan = PlanFor({{"pid", 7, "/w/p.pid7.hatchet"},
                             {"rank", 5, "/w/p.rank1.hatchet"},
                             {"root", 1, "/w/p.hatchet"},
                             {"pid", 8, "/w/p.pid8.hatchet"}},
                            {"/w/p.hatchet", "/w/p.pid7.hatchet", "/w/p.rank1.hatchet"});
  EXPECT_TRUE(plan.renames.empty());
  EXPECT_EQ(plan.files,
            (std::vector<std::string>{"/w/p.hatchet", "/w/p.pid7.hatchet", "/w/p.rank1.hatchet"}));
  EXPECT_FALSE(plan.only_base_file);
}

TEST(Outputs, RenameRule) {
  // A shell-script root wrote nothing; its one Python child did (with a part file too).
  OutputPlan plan =
      PlanFor({{"pid", 7, "/w/p.pid7.hatchet"}, {"pid", 7, "/w/p.pid7.part_0.hatchet"}},
              {"/w/p.pid7.hatchet", "/w/p.pid7.part_0.hatchet"});
  ASSERT_EQ(plan.renames.size(), 2u);
  EXPECT_EQ(plan.renames[0],
            std::make_pair(std::string("/w/p.pid7.hatchet"), std::string("/w/p.hatchet")));
  EXPECT_EQ(plan.renames[1].second, "/w/p.part_0.hatchet");
  EXPECT_EQ(plan.files, (std::vector<std::string>{"/w/p.hatchet", "/w/p.part_0.hatchet"}));
  EXPECT_FALSE(plan.only_base_file);  // the part file is not <base>.<suffix>

  // Two rankless processes, or a root file: no rename.
  EXPECT_TRUE(PlanFor({{"pid", 7, "/w/p.pid7.hatchet"}, {"pid", 8, "/w/p.pid8.hatchet"}},
                      {"/w/p.pid7.hatchet", "/w/p.pid8.hatchet"})
                  .renames.empty());
  EXPECT_TRUE(PlanFor({{"root", 1, "/w/p.hatchet"}, {"pid", 8, "/w/p.pid8.hatchet"}},
                      {"/w/p.hatchet", "/w/p.pid8.hatchet"})
                  .renames.empty());
  // A recorded file that was never written does not count: here the root chose a name but
  // wrote nothing, so the one rankless file takes the root's name.
  OutputPlan unwritten = PlanFor({{"root", 1, "/w/p.hatchet"},
                                  {"pid", 8, "/w/p.pid8.hatchet"},
                                  {"rank", 9, "/w/p.rank1.hatchet"}},
                                 {"/w/p.pid8.hatchet"});
  EXPECT_EQ(unwritten.files, std::vector<std::string>{"/w/p.hatchet"});
  EXPECT_EQ(unwritten.renames.size(), 1u);
}

TEST(Outputs, NumbersInNamesSortByValue) {
  std::vector<FileRecord> records;
  std::set<std::string> existing;
  for (const char* path : {"/w/p.part_10.hatchet", "/w/p.part_2.hatchet", "/w/p.pid100.hatchet",
                           "/w/p.pid99.hatchet", "/w/p.part_1.hatchet", "/w/p.part_02x"}) {
    records.push_back({"pid", 7, path});
    existing.insert(path);
  }
  records.push_back({"root", 1, "/w/p.hatchet"});
  existing.insert("/w/p.hatchet");
  records.push_back({"pid", 8, "/w/p.pid99.hatchet"});  // recorded twice: listed once
  EXPECT_EQ(PlanFor(records, existing).files,
            (std::vector<std::string>{"/w/p.hatchet", "/w/p.part_1.hatchet", "/w/p.part_2.hatchet",
                                      "/w/p.part_02x", "/w/p.part_10.hatchet", "/w/p.pid99.hatchet",
                                      "/w/p.pid100.hatchet"}));
}

TEST(Outputs, DisplayAndLine) {
  EXPECT_EQ(DisplayPath("/w/out/x.rank0.hatchet", "/w/out/x", "out/x"), "out/x.rank0.hatchet");
  EXPECT_EQ(DisplayPath("/elsewhere/y.hatchet", "/w/out/x", "out/x"), "/elsewhere/y.hatchet");
  EXPECT_EQ(WroteLine({"a.hatchet", "a.rank1.hatchet"}),
            "proton: wrote a.hatchet, a.rank1.hatchet\n");
}

std::vector<std::string> ManyFiles(const std::string& folder, int count) {
  std::vector<std::string> files = {folder + "x.hatchet"};
  for (int i = 1; i < count; ++i)
    files.push_back(folder + "x.pid" + std::to_string(100 + i) + ".hatchet");
  return files;
}

TEST(Outputs, WroteLineListsUpToFourFiles) {
  EXPECT_EQ(WroteLine(ManyFiles("out/", 4)),
            "proton: wrote out/x.hatchet, out/x.pid101.hatchet, out/x.pid102.hatchet, "
            "out/x.pid103.hatchet\n");
}

TEST(Outputs, WroteLineSummarisesManyFiles) {
  EXPECT_EQ(WroteLine(ManyFiles("out/", 5)),
            "proton: wrote 5 files in out/ (x.hatchet, ..., x.pid104.hatchet)\n");
  const std::string line = WroteLine(ManyFiles("/abs/run/", 1000));
  EXPECT_EQ(line, "proton: wrote 1000 files in /abs/run/ (x.hatchet, ..., x.pid1099.hatchet)\n");
  // Bare names are in the current folder.
  EXPECT_EQ(WroteLine(ManyFiles("", 6)),
            "proton: wrote 6 files in ./ (x.hatchet, ..., x.pid105.hatchet)\n");
}

TEST(Outputs, WroteSummaryFolderIsTheCommonOne) {
  // Nested folders: the deepest folder all files share.
  std::vector<std::string> files = ManyFiles("a/b/", 5);
  files.back() = "a/c/y.hatchet";
  EXPECT_EQ(WroteLine(files), "proton: wrote 5 files in a/ (b/x.hatchet, ..., c/y.hatchet)\n");
  // Nothing shared: full paths and no folder (an absolute root shares "/" only).
  files.back() = "/elsewhere/y.hatchet";
  EXPECT_EQ(WroteLine(files), "proton: wrote 5 files (a/b/x.hatchet, ..., /elsewhere/y.hatchet)\n");
  EXPECT_EQ(WroteLine({"/x.hatchet", "/a", "/b", "/c", "/elsewhere/y.hatchet"}),
            "proton: wrote 5 files in / (x.hatchet, ..., elsewhere/y.hatchet)\n");
}

}  // namespace
}  // namespace proton::launcher
