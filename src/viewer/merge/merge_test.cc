// Tests for the --merge core: the statistics, the union tree, the sum of raw columns, and
// the merge of small profiles written to temporary files.
#include <gtest/gtest.h>

#include <cmath>

#include "viewer/merge/file_name_facts.h"
#include "viewer/merge/merge_source.h"
#include "viewer/merge/merge_stats.h"
#include "viewer/merge/merge_sum.h"
#include "viewer/merge/merge_union.h"

namespace proton::viewer {
namespace {

TEST(FileNameFacts, RankPhaseAndPidFromTheProfilersNames) {
  const FileNameFacts f = ParseFileName("out/run.rank12.part_3.hatchet_msgpack");
  EXPECT_EQ(f.rank, 12);
  EXPECT_EQ(f.phase, 3);
  EXPECT_EQ(f.pid, std::nullopt);
  EXPECT_EQ(ParseFileName("run.pid4242.hatchet").pid, 4242);
  EXPECT_EQ(ParseFileName("a.rank7").rank, 7);  // at the end
  // Only whole tokens of the base name: digits then '.' or the end.
  EXPECT_EQ(ParseFileName("run.rank1x.hatchet").rank, std::nullopt);
  EXPECT_EQ(ParseFileName("run.rank.hatchet").rank, std::nullopt);
  EXPECT_EQ(ParseFileName("job.rank5/run.hatchet").rank, std::nullopt);
  EXPECT_EQ(ParseFileName("<stdin>").rank, std::nullopt);
  EXPECT_EQ(ParseFileName("x.rank2.y.rank9.hatchet").rank, 9);  // the last one
}

TEST(MergeStats, OddCountMedianAndArgmaxIsFirstFileOfTheMax) {
  std::vector<double> scratch;
  const std::vector<FileValue> v = {{0, 3}, {2, 9}, {3, 1}, {5, 9}, {6, 4}};
  const MergeStats s = ComputeMergeStats(v, scratch);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.median, 4);
  EXPECT_EQ(s.mean, 26.0 / 5);
  EXPECT_EQ(s.max, 9);
  EXPECT_EQ(s.argmax, 2);  // files 2 and 5 tie: the first one
  EXPECT_DOUBLE_EQ(s.imbalance, 9 / (26.0 / 5));
}

TEST(MergeStats, EvenCountMedianIsMeanOfMiddleValues) {
  std::vector<double> scratch;
  const std::vector<FileValue> v = {{0, 10}, {1, 1}, {2, 7}, {3, 2}};
  EXPECT_EQ(ComputeMergeStats(v, scratch).median, 4.5);
}

TEST(MergeStats, NanValuesAreLeftOut) {
  std::vector<double> scratch;
  const std::vector<FileValue> v = {{0, kMissing}, {1, 5}, {2, kMissing}, {3, 1}};
  const MergeStats s = ComputeMergeStats(v, scratch);
  EXPECT_EQ(s.median, 3);
  EXPECT_EQ(s.mean, 3);
  EXPECT_EQ(s.argmax, 1);
}

TEST(MergeStats, NoValuesGivesNanAndZeroMeanGivesNanImbalance) {
  std::vector<double> scratch;
  const std::vector<FileValue> none = {{0, kMissing}};
  const MergeStats s = ComputeMergeStats(none, scratch);
  EXPECT_TRUE(std::isnan(s.min) && std::isnan(s.median) && std::isnan(s.argmax));
  const std::vector<FileValue> zeros = {{0, 0}, {1, 0}};
  const MergeStats z = ComputeMergeStats(zeros, scratch);
  EXPECT_EQ(z.max, 0);
  EXPECT_TRUE(std::isnan(z.imbalance));
}

TEST(MergeStats, PrintOrderStartsWithTheMedian) {
  EXPECT_EQ(kMergePrintOrder[0], MergeStat::kMedian);
  for (const MergeStat stat : kAllMergeStats) {
    EXPECT_EQ(kMergePrintOrder[MergePrintPosition(stat)], stat);
  }
  EXPECT_STREQ(MergeStatSuffix(MergeStat::kImbalance), ":imbalance");
}

// ROOT -> children named by `kids` (in file order), each with time (ns) = its value.
ProfileTree Flat(const std::vector<std::pair<std::string, int64_t>>& kids) {
  ProfileTree t;
  const NodeId root = t.AddNode(kNoNode, "ROOT");
  t.SetInt(root, "time (ns)", 0);
  for (const auto& [name, time] : kids) {
    const NodeId n = t.AddNode(root, name);
    t.SetInt(n, "time (ns)", time);
  }
  EXPECT_TRUE(PrepareProfile(t, "t").ok());
  return t;
}

TEST(MergeUnion, MatchesByPathAndAddsNewNodesInFirstAppearanceOrder) {
  MergeUnion u;
  const std::vector<NodeId> a = u.Map(Flat({{"b", 1}, {"a", 2}}));
  const std::vector<NodeId> b = u.Map(Flat({{"c", 3}, {"b", 4}}));
  EXPECT_EQ(u.size(), 4u);
  EXPECT_EQ(a[1], b[2]);  // "b" is the same node in both
  std::vector<NodeId> tree_id;
  const ProfileTree tree = u.BuildTree(tree_id);
  ASSERT_EQ(tree.size(), 4u);
  const auto kids = tree.children(ProfileTree::root());
  ASSERT_EQ(kids.size(), 3u);
  EXPECT_EQ(tree.name(kids[0]), "b");
  EXPECT_EQ(tree.name(kids[2]), "c");
  EXPECT_EQ(tree.name(tree.sorted_children(ProfileTree::root())[0]), "a");
}

TEST(MergeUnion, SortedPreOrderIsThePrintOrderOfTheBuiltTree) {
  MergeUnion u;
  u.Map(Flat({{"b", 1}, {"a", 2}, {"B", 3}}));
  u.Map(Flat({{"c", 3}, {"_x", 4}}));
  std::vector<NodeId> tree_id;
  const ProfileTree tree = u.BuildTree(tree_id);
  std::vector<std::string_view> want;
  for (const NodeId n : SortedPreOrder(tree)) want.push_back(tree.name(n));
  std::vector<std::string_view> got;
  for (const NodeId id : u.SortedPreOrder()) got.push_back(u.name(id));
  EXPECT_EQ(got, want);
  EXPECT_EQ(got, (std::vector<std::string_view>{"ROOT", "B", "_x", "a", "b", "c"}));  // §3.7
  EXPECT_EQ(u.type(1), "function");
}

TEST(MergeUnion, SameNameUnderDifferentParentsStaysApart) {
  ProfileTree t;
  const NodeId root = t.AddNode(kNoNode, "ROOT");
  t.SetInt(root, "count", 0);
  for (const char* scope : {"s1", "s2"}) {
    const NodeId s = t.AddNode(root, scope);
    t.SetInt(t.AddNode(s, "k"), "count", 1);
  }
  ASSERT_TRUE(PrepareProfile(t, "t").ok());
  MergeUnion u;
  u.Map(t);
  EXPECT_EQ(u.size(), 5u);
}

// Maps first: the union's size is only known after the file is mapped.
void AddToSum(MergeSum& sum, MergeUnion& u, const ProfileTree& tree) {
  const std::vector<NodeId> union_id = u.Map(tree);
  sum.Add(tree, union_id, u.size());
}

TEST(MergeSum, AddsIntegersExactlyAndKeepsMissingNodesOut) {
  MergeUnion u;
  MergeSum sum;
  const ProfileTree a = Flat({{"k", int64_t{1} << 60}, {"only_a", 5}});
  const ProfileTree b = Flat({{"k", 3}});
  AddToSum(sum, u, a);
  AddToSum(sum, u, b);
  Result<ProfileTree> merged = sum.Build(u, DeviceTable(), "m");
  ASSERT_TRUE(merged.ok());
  const ProfileTree& t = *merged;
  const int time = t.FindColumn("time (ns)");
  ASSERT_GE(time, 0);
  const RawColumn& column = t.columns()[static_cast<size_t>(time)];
  EXPECT_TRUE(column.inclusive);
  EXPECT_EQ(column.int_value(1), (int64_t{1} << 60) + 3);
  EXPECT_EQ(t.name(2), "only_a");
  EXPECT_EQ(column.int_value(2), 5);
  EXPECT_EQ(column.inc[ProfileTree::root()], static_cast<double>((int64_t{1} << 60) + 8));
}

TEST(MergeSum, KeepsTheFirstStringValue) {
  ProfileTree a;
  const NodeId root = a.AddNode(kNoNode, "ROOT");
  a.SetInt(root, "count", 0);
  const NodeId k = a.AddNode(root, "k");
  a.SetInt(k, "count", 2);
  a.SetString(k, "device_id", "0");
  ASSERT_TRUE(PrepareProfile(a, "a").ok());
  MergeUnion u;
  MergeSum sum;
  AddToSum(sum, u, a);
  AddToSum(sum, u, a);
  Result<ProfileTree> merged = sum.Build(u, DeviceTable(), "m");
  ASSERT_TRUE(merged.ok());
  const RawColumn& device = merged->columns()[static_cast<size_t>(merged->FindColumn("device_id"))];
  EXPECT_EQ(device.str(1), "0");
  const RawColumn& count = merged->columns()[static_cast<size_t>(merged->FindColumn("count"))];
  EXPECT_EQ(count.int_value(1), 4);
}

}  // namespace
}  // namespace proton::viewer

namespace proton::viewer {
namespace {

// ROOT -> `child` (a kernel on CUDA device `index` of architecture `arch`).
ProfileTree OnDevice(const std::string& child, const std::string& arch, const std::string& index) {
  ProfileTree t;
  const NodeId root = t.AddNode(kNoNode, "ROOT");
  t.SetInt(root, "count", 0);
  t.SetInt(t.AddNode(root, child), "count", 1);
  t.mutable_devices().entries.push_back({"CUDA", index, DeviceInfo{arch, true, 6016, 1, 1, 132}});
  EXPECT_TRUE(PrepareProfile(t, "t").ok());
  return t;
}

TEST(MergeSourceCheck, RanksOnDevicesOfOneModelAgree) {
  MergeSourceCheck check;
  EXPECT_TRUE(check.Check(OnDevice("k", "90", "0"), "rank0").ok());
  EXPECT_TRUE(check.Check(OnDevice("k", "90", "7"), "rank7").ok());
  ProfileTree no_devices = OnDevice("k", "90", "0");
  no_devices.mutable_devices().entries.clear();
  EXPECT_TRUE(check.Check(no_devices, "empty").ok());
}

TEST(MergeSourceCheck, OtherDeviceModelOrContextIsRefused) {
  MergeSourceCheck check;
  ASSERT_TRUE(check.Check(OnDevice("k", "90", "0"), "h200").ok());
  const Status device = check.Check(OnDevice("k", "80", "0"), "a100");
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.message().rfind("cannot merge 'a100' with 'h200': recorded on different "
                                   "devices (CUDA arch 80",
                                   0),
            0u)
      << device.message();
  const Status context = check.Check(OnDevice("/app/train.py:34@main", "90", "0"), "py");
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.message(),
            "cannot merge 'py' with 'h200': one has Python call paths, the other scopes "
            "(different contexts)");
}

}  // namespace
}  // namespace proton::viewer

namespace proton::viewer {
namespace {

// A device-less first file agrees with everything, but must not let two device models in.
TEST(MergeSourceCheck, DevicelessFirstFileDoesNotHideDifferentDevices) {
  MergeSourceCheck check;
  ProfileTree no_devices = OnDevice("k", "90", "0");
  no_devices.mutable_devices().entries.clear();
  ASSERT_TRUE(check.Check(no_devices, "empty").ok());
  ASSERT_TRUE(check.Check(OnDevice("k", "90", "0"), "h100").ok());
  const Status device = check.Check(OnDevice("k", "80", "0"), "a100");
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.message().rfind("cannot merge 'a100' with 'h100': recorded on different", 0), 0u)
      << device.message();
}

// Frame types and names are arbitrary bytes (a JSON "\u0000" is one): no split of type and
// name may map two different frames to one union node.
TEST(MergeUnion, NulBytesInTypeOrNameNeverCollide) {
  ProfileTree t;
  const NodeId root = t.AddNode(kNoNode, "ROOT");
  t.SetInt(root, "count", 0);
  t.SetInt(t.AddNode(root, std::string("b", 1), std::string("a\0", 2)), "count", 1);
  t.SetInt(t.AddNode(root, std::string("\0b", 2), "a"), "count", 1);
  ASSERT_TRUE(PrepareProfile(t, "t").ok());
  ASSERT_EQ(t.children(ProfileTree::root()).size(), 2u);
  MergeUnion u;
  u.Map(t);
  EXPECT_EQ(u.size(), 3u);
}

}  // namespace
}  // namespace proton::viewer
