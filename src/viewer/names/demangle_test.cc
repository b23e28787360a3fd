// Tests for --demangle's names (viewer.md §11.9): the full form is libstdc++'s, the short
// form is checked on kernel names taken from tests/refdata/gpt2_shadow.hatchet (PyTorch,
// cuBLASLt, CUTLASS) and on the C++ constructs the reduction must keep intact.
#include "viewer/names/demangle.h"

#include <gtest/gtest.h>

namespace proton::viewer {
namespace {

struct ShortCase {
  const char* mangled;
  const char* short_name;
};

constexpr ShortCase kRealKernels[] = {
    {"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_"
     "T1_",
     "at::native::vectorized_elementwise_kernel"},
    {"_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastINS0_15CUDAFunct"
     "or_addIfEEEEvRNS_18TensorIteratorBaseERKT_EUliE_EEviT1_",
     "at::native::elementwise_kernel"},
    {"_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_14func_wrapper_tIfZNS0_11sum_fu"
     "nctorIfffEclERNS_14TensorIteratorEEUlffE_EEjfLi4ELi4EEEEEvT1_",
     "at::native::reduce_kernel"},
    {"_ZN2at6native24vectorized_gather_kernelILi16ElEEvPcS2_PT0_illllb",
     "at::native::vectorized_gather_kernel"},
    {"_ZN2at6native53_GLOBAL__N__21739cd4_20_layer_norm_kernel_cu_9c5ada8a28vectorized_layer_no"
     "rm_kernelIffLb0EEEviT0_PKT_S6_S6_PS3_S7_PS4_",
     "at::native::(anonymous namespace)::vectorized_layer_norm_kernel"},
    {"_ZN2at6native43_GLOBAL__N__b6de9c8c_10_SoftMax_cu_9f978f6322cunn_SoftMaxForwardRegIfffNS1"
     "_25LogSoftMaxForwardEpilogueElLi8EEEvPT1_PKT_T3_",
     "at::native::(anonymous namespace)::cunn_SoftMaxForwardReg"},
    {"_ZN50_GLOBAL__N__fa15d16e_17_RangeFactories_cu_38772b0829elementwise_kernel_with_indexIiZ"
     "ZZN2at6native15arange_cuda_outERKN3c106ScalarES6_S6_RNS1_6TensorEENKUlvE_clEvENKUlvE2_clE"
     "vEUllE_EEvT_T0_PN15function_traitsISD_E11result_typeE",
     "(anonymous namespace)::elementwise_kernel_with_index"},
    {"_ZN8cublasLt19splitKreduce_kernelILi32ELi16EiffffLb0EfffLb1ELb0ELb0ELb0EEEvNS_18cublasSpl"
     "itKParamsIT4_EEPKT2_PKT8_PT7_PT3_PKS2_SF_PKT9_S6_PSG_PvlPS2_PiSL_SL_SF_SF_SF_SF_SF_",
     "cublasLt::splitKreduce_kernel"},
    {"_ZN7cutlass7Kernel2I42cutlass_80_simt_sgemm_128x64_8x5_nt_align1EEvNT_6ParamsE",
     "cutlass::Kernel2"},
    {"_Z39fmha_cutlassF_f32_aligned_64x64_rf_sm80N22PyTorchMemEffAttention15AttentionKernelIfN7"
     "cutlass4arch4Sm80ELb1ELi64ELi64ELi64ELb1ELb1EE6ParamsE",
     "fmha_cutlassF_f32_aligned_64x64_rf_sm80"},
};

TEST(Demangle, ShortFormOfRealKernels) {
  for (const ShortCase& c : kRealKernels) {
    EXPECT_EQ(DisplayName(c.mangled, DemangleMode::kShort), c.short_name) << c.mangled;
  }
}

TEST(Demangle, FullFormIsLibstdcxxText) {
  EXPECT_EQ(DisplayName(kRealKernels[0].mangled, DemangleMode::kFull),
            "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
            "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, "
            "std::array<char*, 1ul>)");
  EXPECT_EQ(DisplayName("_Z3addPfS_S_i", DemangleMode::kFull), "add(float*, float*, float*, int)");
  EXPECT_EQ(DemangleItanium("_ZN2at6native3fooEv"), "at::native::foo()");
}

TEST(Demangle, KeepsWhatIsNotMangled) {
  for (DemangleMode mode : {DemangleMode::kOff, DemangleMode::kFull, DemangleMode::kShort}) {
    EXPECT_EQ(DisplayName("ROOT", mode), "ROOT");
    EXPECT_EQ(DisplayName("triton_poi_fused_add_0", mode), "triton_poi_fused_add_0");
    EXPECT_EQ(DisplayName("i", mode), "i");                  // a type encoding, but not a "_Z" name
    EXPECT_EQ(DisplayName("_Zgarbage", mode), "_Zgarbage");  // fails to demangle
    EXPECT_EQ(DisplayName("", mode), "");
  }
  EXPECT_EQ(DisplayName("_Z3addPfS_S_i", DemangleMode::kOff), "_Z3addPfS_S_i");
}

TEST(ShortCxxName, OperatorsKeepTheirBrackets) {
  EXPECT_EQ(ShortCxxName("foo::Bar::operator<(foo::Bar const&)"), "foo::Bar::operator<");
  EXPECT_EQ(ShortCxxName("bool foo::operator< <int>(int, int)"), "foo::operator<");
  EXPECT_EQ(ShortCxxName("foo::Bar& foo::Bar::operator<< <int>(int)"), "foo::Bar::operator<<");
  EXPECT_EQ(ShortCxxName("foo::Bar::operator()(int) const"), "foo::Bar::operator()");
  EXPECT_EQ(ShortCxxName("foo::Bar::operator[](int)"), "foo::Bar::operator[]");
  EXPECT_EQ(ShortCxxName("foo::Bar::operator->() const"), "foo::Bar::operator->");
  EXPECT_EQ(ShortCxxName("foo::Bar::operator new(unsigned long)"), "foo::Bar::operator new");
  EXPECT_EQ(ShortCxxName("foo::Bar::operator int()"), "foo::Bar::operator int");
  EXPECT_EQ(ShortCxxName("foo<&foo::Bar::operator()>::f()"), "foo::f");
  EXPECT_EQ(ShortCxxName("my_operator<int>(int)"), "my_operator");
}

TEST(ShortCxxName, LambdasAnonymousNamespacesAndQualifiers) {
  EXPECT_EQ(ShortCxxName("at::native::foo()::{lambda(int)#1}::operator()(int) const"),
            "at::native::foo::{lambda(int)#1}::operator()");
  EXPECT_EQ(ShortCxxName("void (anonymous namespace)::k<float>(float*)"),
            "(anonymous namespace)::k");
  EXPECT_EQ(ShortCxxName("void at::native::foo<int, 4>(int*, at::Array<char*, 2> const&)"),
            "at::native::foo");
  EXPECT_EQ(ShortCxxName("unsigned long const* ns::f<1>(int)"), "ns::f");
  EXPECT_EQ(ShortCxxName("foo::Bar::f() &&"), "foo::Bar::f");
  EXPECT_EQ(ShortCxxName("foo::Bar::~Bar()"), "foo::Bar::~Bar");
  EXPECT_EQ(ShortCxxName("foo() [clone .cold]"), "foo");
  EXPECT_EQ(ShortCxxName("ns::f[abi:cxx11](int)"), "ns::f");
  EXPECT_EQ(ShortCxxName("ns::value"), "ns::value");
}

TEST(ShortCxxName, TextWithoutANameComesBackWhole) {
  EXPECT_EQ(ShortCxxName(""), "");
  EXPECT_EQ(ShortCxxName("(int)"), "(int)");
  EXPECT_EQ(ShortCxxName("f<<<"), "f");  // unbalanced: the group runs to the end
}

TEST(ApplyDemangle, RenamesInPlaceAndKeepsTheStoredOrder) {
  ProfileTree tree;
  const NodeId root = tree.AddNode(kNoNode, "ROOT");
  tree.AddNode(root, "_Z1bv");  // b(): sorts before "a_kernel" only as stored ("_" < "a")
  tree.AddNode(root, "a_kernel");
  tree.Finalize();
  const auto before = tree.sorted_children(root);
  const std::vector<NodeId> order(before.begin(), before.end());
  ApplyDemangle(tree, DemangleMode::kFull);
  EXPECT_EQ(tree.name(1), "b()");
  EXPECT_EQ(tree.name(2), "a_kernel");
  const auto after = tree.sorted_children(root);
  EXPECT_EQ(std::vector<NodeId>(after.begin(), after.end()), order);
  ApplyDemangle(tree, DemangleMode::kShort);  // no longer "_Z": unchanged
  EXPECT_EQ(tree.name(1), "b()");
}

}  // namespace
}  // namespace proton::viewer
