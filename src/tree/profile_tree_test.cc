// Structural operations: frame removal, metric table, inclusive sums, filters' kept sets,
// reduction + merging, diff union and row order, deep chains.
#include "tree/profile_tree.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "format/profile_reader.h"
#include "tree/tree_invariants.h"

namespace proton::tree {
namespace {

const std::string kProfiles = std::string(PROTON_SOURCE_DIR) + "/tests/compat/viewer/profiles/";

// Names in sorted pre-order, with depth as leading dots: "ROOT .a ..b".
std::string Shape(const ProfileTree& t) {
  std::string s;
  for (NodeId n : SortedPreOrder(t)) {
    if (!s.empty()) s += ' ';
    s += std::string(t.depth(n), '.') + std::string(t.name(n));
  }
  return s;
}

const RawColumn& Col(const ProfileTree& t, const char* key) {
  const int i = t.FindColumn(key);
  EXPECT_GE(i, 0) << key;
  return t.columns()[static_cast<size_t>(i)];
}

NodeId Find(const ProfileTree& t, std::string_view name) {
  for (NodeId n = 0; n < t.size(); ++n)
    if (t.name(n) == name) return n;
  return kNoNode;
}

// ROOT{time:0} -> a -> {x(time 1), y(time 2)}, b(time 4, flops 1.5) -> x(time 8)
ProfileTree Sample() {
  ProfileTree t;
  const NodeId root = t.AddNode(kNoNode, "ROOT");
  t.SetInt(root, "time (ns)", 0);
  const NodeId a = t.AddNode(root, "a");
  t.SetInt(t.AddNode(a, "y"), "time (ns)", 2);
  t.SetInt(t.AddNode(a, "x"), "time (ns)", 1);
  const NodeId b = t.AddNode(root, "b");
  t.SetInt(b, "time (ns)", 4);
  t.SetDouble(b, "flops", 1.5);
  const NodeId bx = t.AddNode(b, "x");
  t.SetInt(bx, "time (ns)", 8);
  t.SetString(bx, "device_id", "0");
  EXPECT_TRUE(PrepareProfile(t, "S").ok());
  return t;
}

TEST(ProfileTree, StructureSortAndInclusive) {
  ProfileTree t = Sample();
  EXPECT_EQ(Shape(t), "ROOT .a ..x ..y .b ..x");
  const NodeId a = Find(t, "a");
  ASSERT_EQ(t.children(a).size(), 2u);
  EXPECT_EQ(t.name(t.children(a)[0]), "y");  // file order kept in children()
  EXPECT_EQ(t.name(t.sorted_children(a)[0]), "x");
  const RawColumn& time = Col(t, "time (ns)");
  EXPECT_TRUE(time.inclusive);
  EXPECT_EQ(time.kind, ColumnKind::kInteger);
  EXPECT_EQ(time.inc[0], 15);
  EXPECT_EQ(time.inc[a], 3);
  EXPECT_TRUE(std::isnan(time.own[a]));
  EXPECT_EQ(t.num_inclusive(), 1u);
  EXPECT_EQ(t.columns()[1].key, "flops");
  EXPECT_EQ(t.columns()[2].key, "device_id");
  EXPECT_TRUE(Col(t, "flops").inc.empty());
  EXPECT_EQ(Col(t, "device_id").kind, ColumnKind::kNonNumeric);
}

TEST(ProfileTree, SortIsBytewiseAndStable) {
  ProfileTree t;
  const NodeId r = t.AddNode(kNoNode, "ROOT");
  const char* names[] = {"b", "\xC3\x84", "a9", "a10", "_x", "B", "a", "a"};
  for (const char* n : names) t.SetInt(t.AddNode(r, n), "c", 1);
  ASSERT_TRUE(PrepareProfile(t, "S").ok());
  std::string s;
  for (NodeId c : t.sorted_children(0)) s += std::string(t.name(c)) + "#" + std::to_string(c) + " ";
  EXPECT_EQ(s, "B#6 _x#5 a#7 a#8 a10#4 a9#3 b#1 \xC3\x84#2 ");
}

TEST(ProfileTree, RemovalRules) {
  ProfileTree t;
  const NodeId r = t.AddNode(kNoNode, "ROOT");
  t.SetInt(r, "count", 0);
  const NodeId s = t.AddNode(r, "scope");
  const NodeId lm = t.AddNode(s, "__proton_launch_metadata");
  t.SetInt(t.AddNode(lm, "cuda_kernel"), "helper_only", 1);
  t.SetInt(t.AddNode(s, "__proton_launch_metadata:x"), "count", 1);
  t.SetInt(t.AddNode(s, "__proton_launch_metadataX"), "count", 1);  // not a match
  t.AddNode(t.AddNode(r, "empty_chain"), "empty_leaf");
  const NodeId own = t.AddNode(r, "own");
  t.SetInt(own, "cpu", 5);
  t.AddNode(own, "noop");
  ASSERT_TRUE(PrepareProfile(t, "F").ok());
  EXPECT_EQ(Shape(t), "ROOT .own .scope ..__proton_launch_metadataX");
  EXPECT_EQ(t.FindColumn("helper_only"), -1);  // only in the removed subtree
  EXPECT_EQ(Col(t, "count").inc[0], 1);

  ProfileTree e;
  e.AddNode(e.AddNode(kNoNode, "ROOT"), "x");
  EXPECT_EQ(PrepareProfile(e, "E").message(), "'E' contains no profile data");
}

TEST(ProfileTree, CompatRemovalCases) {
  auto cpu = format::LoadProfile(kProfiles + "cpu_scopes.hatchet");
  ASSERT_TRUE(cpu.ok());
  EXPECT_NE(Find(*cpu, "step"), kNoNode);  // deliberate difference 10
  EXPECT_EQ(Find(*cpu, "noop"), kNoNode);
  auto tri = format::LoadProfile(kProfiles + "triton.json");
  ASSERT_TRUE(tri.ok());
  EXPECT_EQ(Find(*tri, "cuda_kernel"), kNoNode);
  EXPECT_EQ(Find(*tri, "__proton_launch_metadata"), kNoNode);
  EXPECT_EQ(Shape(*tri), "ROOT .scope ..triton_kernel");
  EXPECT_EQ(Col(*tri, "time (ns)").inc[0], 1664);
}

TEST(ProfileTree, KeptSets) {
  ProfileTree t = Sample();  // ids: 0 ROOT, 1 a, 2 y, 3 x, 4 b, 5 x
  std::vector<uint8_t> m(t.size(), 0);
  m[Find(t, "a")] = 1;
  EXPECT_EQ(KeptNodes(t, FilterKind::kInclude, m), (std::vector<uint8_t>{1, 1, 1, 1, 0, 0}));
  EXPECT_EQ(KeptNodes(t, FilterKind::kExclude, m), (std::vector<uint8_t>{1, 0, 0, 0, 1, 1}));
  EXPECT_EQ(KeptNodes(t, FilterKind::kThreshold, m), (std::vector<uint8_t>{1, 1, 0, 0, 0, 0}));
  std::vector<uint8_t> leaf(t.size(), 0);
  leaf[5] = 1;
  EXPECT_EQ(KeptNodes(t, FilterKind::kInclude, leaf), (std::vector<uint8_t>{1, 0, 0, 0, 1, 1}));
  std::vector<uint8_t> root(t.size(), 0);
  root[0] = 1;
  EXPECT_EQ(KeptNodes(t, FilterKind::kExclude, root), std::vector<uint8_t>(t.size(), 0));
  ProfileTree copy = t;
  EXPECT_FALSE(ApplyFilter(copy, FilterKind::kExclude, root));
  EXPECT_EQ(copy.size(), t.size());
}

TEST(ProfileTree, FilterRecomputesInclusiveOnlyAndCarriesExtras) {
  ProfileTree t = Sample();
  ExtraColumn e{"derived", std::vector<double>(t.size())};
  for (NodeId n = 0; n < t.size(); ++n) e.values[n] = Col(t, "time (ns)").inc[n];  // pre-filter
  t.extra_columns().push_back(e);
  std::vector<uint8_t> m(t.size(), 0);
  m[Find(t, "b")] = 1;
  ASSERT_TRUE(ApplyFilter(t, FilterKind::kThreshold, m));
  EXPECT_EQ(Shape(t), "ROOT .b");
  EXPECT_EQ(Col(t, "time (ns)").inc[0], 4);       // recomputed
  EXPECT_EQ(t.extra_columns()[0].values[0], 15);  // carried, not recomputed
  EXPECT_EQ(t.extra_columns()[0].values[1], 12);
}

TEST(ProfileTree, MergeDuplicates) {
  ProfileTree t;
  const NodeId r = t.AddNode(kNoNode, "ROOT");
  t.SetInt(r, "time", 0);
  const NodeId k1 = t.AddNode(r, "k");
  t.SetInt(k1, "time", 1);
  t.SetString(k1, "dev", "0");
  t.SetInt(t.AddNode(k1, "c"), "time", 10);
  t.SetInt(t.AddNode(r, "j"), "time", 100);
  const NodeId k2 = t.AddNode(r, "k");
  t.SetInt(k2, "time", 2);
  t.SetString(k2, "dev", "1");
  t.SetDouble(k2, "f", 0.5);
  t.SetInt(t.AddNode(k2, "c"), "time", 20);
  t.SetInt(t.AddNode(k2, "d"), "time", 40);
  const NodeId k3 = t.AddNode(r, "k", "other");  // different type: not a duplicate
  t.SetInt(k3, "time", 1000);
  ASSERT_TRUE(PrepareProfile(t, "M").ok());
  EXPECT_EQ(Shape(t), "ROOT .j .k ..c .k ..c ..d .k");  // unmerged: both printed
  t.extra_columns().push_back({"x", std::vector<double>(t.size(), kMissing)});
  t.extra_columns()[0].values[k1] = 3;
  MergeDuplicates(t);
  EXPECT_EQ(Shape(t), "ROOT .j .k ..c ..d .k");
  const NodeId k = t.children(0)[0];
  EXPECT_EQ(t.name(k), "k");
  EXPECT_EQ(Col(t, "time").own[k], 3);
  EXPECT_EQ(Col(t, "time").inc[k], 73);
  EXPECT_EQ(Col(t, "f").own[k], 0.5);    // NaN-skipping sum
  EXPECT_EQ(Col(t, "dev").str(k), "0");  // non-numeric: first
  EXPECT_EQ(t.extra_columns()[0].values[k], 3);
  EXPECT_EQ(Col(t, "time").own[t.children(k)[0]], 30);
  EXPECT_EQ(Col(t, "time").inc[0], 1173);
}

TEST(ProfileTree, DiffUnionAndRowOrder) {
  ProfileTree l = Sample();  // ROOT a{x,y} b{x}
  ProfileTree r;
  const NodeId root = r.AddNode(kNoNode, "ROOT");
  r.SetInt(root, "time (ns)", 0);
  const NodeId a = r.AddNode(root, "a");
  r.SetInt(r.AddNode(a, "z"), "time (ns)", 1);
  r.SetInt(r.AddNode(a, "x"), "time (ns)", 1);
  r.SetInt(r.AddNode(root, "c"), "time (ns)", 1);
  ASSERT_TRUE(PrepareProfile(r, "R").ok());
  DiffUnion u = BuildDiffUnion(l, r);
  EXPECT_EQ(Shape(u.tree), "ROOT .a ..x ..y ..z .b ..x .c");
  EXPECT_TRUE(u.sides_differ);
  std::string rows;
  for (NodeId n : u.row_order)
    rows += std::string(u.tree.name(n)) + (u.left[n] == kNoNode ? "> " : " ");
  EXPECT_EQ(rows, "ROOT a x y b x z> c> ");
  const NodeId ux = 2;
  EXPECT_EQ(l.name(u.left[ux]), "x");
  EXPECT_EQ(r.name(u.right[ux]), "x");
  EXPECT_EQ(u.right[3], kNoNode);
  DiffUnion same = BuildDiffUnion(l, l);
  EXPECT_FALSE(same.sides_differ);
}

TEST(ProfileTree, DeepChainEverywhere) {
  constexpr int kDeep = 100000;
  ProfileTree t;
  NodeId p = t.AddNode(kNoNode, "ROOT");
  t.SetInt(p, "time", 0);
  for (int i = 0; i < kDeep; ++i) {
    p = t.AddNode(p, i % 2 ? "a" : "b");
    t.SetInt(p, "time", 1);
  }
  ASSERT_TRUE(PrepareProfile(t, "D").ok());
  EXPECT_EQ(Col(t, "time").inc[0], kDeep);
  std::vector<uint8_t> m(t.size(), 0);
  m[kDeep / 2] = 1;
  ProfileTree inc = t;
  ASSERT_TRUE(ApplyFilter(inc, FilterKind::kInclude, m));
  EXPECT_EQ(inc.size(), t.size());
  ASSERT_TRUE(ApplyFilter(t, FilterKind::kExclude, m));
  EXPECT_EQ(t.size(), static_cast<size_t>(kDeep / 2));
  DiffUnion u = BuildDiffUnion(t, inc);
  EXPECT_EQ(u.tree.size(), inc.size());
  EXPECT_EQ(SortedPreOrder(u.tree).size(), inc.size());
}

#if PROTON_DCHECK_IS_ON
// Where DCHECKs run (debug, sanitizer and fuzz trees) a tree out of pre-order is caught: the
// builder accepts it (only parent < child is needed for memory safety), the check does not.
TEST(TreeInvariantsDeathTest, NodeWhoseParentIsNotOnThePathIsCaught) {
  ProfileTree t;
  t.AddNode(kNoNode, "ROOT");
  t.AddNode(0, "a");
  t.AddNode(0, "b");
  t.AddNode(1, "a.child");  // node 1 is not an ancestor of node 2
  EXPECT_DEATH(DcheckPreOrder(t),
               "check failed: .*node 3: its parent 1 is not an ancestor of "
               "node 2 \\(ids not in pre-order\\)");
}

TEST(TreeInvariants, EveryEditKeepsPreOrder) {
  ProfileTree t;
  t.AddNode(kNoNode, "ROOT");
  t.AddNode(0, "a");
  t.AddNode(1, "a1");
  t.AddNode(0, "a");  // merged with node 1
  t.AddNode(3, "a2");
  t.SetInt(2, "time (ns)", 1);
  t.SetInt(4, "time (ns)", 2);
  DcheckPreOrder(t);
  ASSERT_TRUE(PrepareProfile(t, "x").ok());
  MergeDuplicates(t);
  DcheckPreOrder(t);
  DcheckChildLists(t);
  EXPECT_EQ(Shape(t), "ROOT .a ..a1 ..a2");
}
#endif

}  // namespace
}  // namespace proton::tree
