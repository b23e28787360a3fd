// Tests for --match=normalized's names (viewer.md §11.7).
#include "viewer/names/name_normalize.h"

#include <gtest/gtest.h>

namespace proton::viewer {
namespace {

TEST(NormalizeName, TritonAndInductorSuffixes) {
  EXPECT_EQ(NormalizeName("triton_poi_fused_add_0"), "triton_poi_fused_add");
  EXPECT_EQ(NormalizeName("triton_red_fused_sum_12"), "triton_red_fused_sum");
  EXPECT_EQ(NormalizeName("_kernel_0d1d2d3de4"), "_kernel");
  EXPECT_EQ(NormalizeName("matmul_kernel_0d1d2c3de"), "matmul_kernel");
  EXPECT_EQ(NormalizeName("attn_fwd_9f86d081884c7d65"), "attn_fwd");
  // Repeatedly: a hash after a numeric suffix, or the other way round.
  EXPECT_EQ(NormalizeName("add_kernel_0d1d_deadbeef01"), "add_kernel");
  EXPECT_EQ(NormalizeName("triton_poi_fused_0_1"), "triton_poi_fused");
}

TEST(NormalizeName, KeepsWhatIsNotASuffix) {
  EXPECT_EQ(NormalizeName("add_kernel"), "add_kernel");
  EXPECT_EQ(NormalizeName("ROOT"), "ROOT");
  EXPECT_EQ(NormalizeName("_0"), "_0");                        // nothing would remain
  EXPECT_EQ(NormalizeName("gemm_64x8"), "gemm_64x8");          // 'x' is not a signature letter
  EXPECT_EQ(NormalizeName("fused_deadbee"), "fused_deadbee");  // 7 hex digits: a word
  EXPECT_EQ(NormalizeName("f_DEADBEEF01"), "f_DEADBEEF01");    // hashes are lower case
  EXPECT_EQ(NormalizeName("kernel_"), "kernel_");
  EXPECT_EQ(NormalizeName(""), "");
}

TEST(NormalizeName, Demangles) {
  EXPECT_EQ(NormalizeName("_Z3addPfS_S_i"), "add(float*, float*, float*, int)");
  EXPECT_EQ(NormalizeName("_ZN2at6native3fooEv"), "at::native::foo()");
  // Not a valid mangling: kept (then the suffix rules apply as to any name).
  EXPECT_EQ(NormalizeName("_Zgarbage"), "_Zgarbage");
  EXPECT_EQ(NormalizeName("_Zgarbage_12"), "_Zgarbage");
}

TEST(NormalizeNames, RenamesAndResorts) {
  ProfileTree t;
  const NodeId root = t.AddNode(kNoNode, "ROOT");
  t.AddNode(root, "zeta");
  t.AddNode(root, "triton_poi_fused_add_7");
  t.SetInt(2, "time (ns)", 5);
  t.Finalize();
  NormalizeNames(t);
  ASSERT_EQ(t.sorted_children(root).size(), 2u);
  EXPECT_EQ(t.name(t.sorted_children(root)[0]), "triton_poi_fused_add");
  EXPECT_EQ(t.name(t.sorted_children(root)[1]), "zeta");
}

}  // namespace
}  // namespace proton::viewer
