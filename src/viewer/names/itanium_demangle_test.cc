// Tests of the bounded demangler (itanium_demangle.h, viewer.md §11.9): the same text as
// libstdc++'s abi::__cxa_demangle on every real kernel name of tests/refdata, and each limit
// on the hostile names that once took minutes and gigabytes (names whose substitutions
// reference the previous composite twice, so the text doubles per step).
#include "viewer/names/itanium_demangle.h"

#include <cxxabi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "viewer/names/demangle.h"
#include "viewer/names/name_normalize.h"

namespace proton::viewer {
namespace {

// The substitution S<seq>_ for index i (S_ for 0, then base 36: S0_, S1_, ..., SZ_, S10_).
std::string Substitution(size_t i) {
  if (i == 0) return "S_";
  std::string digits;
  for (size_t n = i - 1;; n /= 36) {
    digits.insert(digits.begin(), "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n % 36]);
    if (n < 36) break;
  }
  return "S" + digits + "_";
}

// f(A, B<A, A>, B<B<A, A>, B<A, A>>, ...): at least `bytes` long, each parameter twice the
// previous one.
std::string DoublingName(size_t bytes, std::string_view function = "1f") {
  std::string name = "_Z" + std::string(function) + "1A1BIS_S_E";
  for (size_t k = 2; name.size() < bytes; ++k) {
    name += "S0_I" + Substitution(k) + Substitution(k) + "E";
  }
  return name;
}

std::string CxaDemangle(const std::string& name) {
  int status = 0;
  char* out = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string text = status == 0 && out != nullptr ? out : "";
  std::free(out);
  return text;
}

bool IsMangledChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// Every `_Z[A-Za-z0-9_]+` in the bundled profiles (without std::regex, on which g++ 12's
// sanitizer build warns falsely).
std::set<std::string> RefdataNames() {
  std::set<std::string> names;
  for (const char* file : {"gpt2_shadow.hatchet", "ref_hook.hatchet", "ref_graph.hatchet"}) {
    std::ifstream in(std::string(PROTON_SOURCE_DIR) + "/tests/refdata/" + file);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    for (size_t at = s.find("_Z"); at != std::string::npos; at = s.find("_Z", at)) {
      const bool starts = at == 0 || !IsMangledChar(s[at - 1]);
      size_t end = at + 2;
      while (end < s.size() && IsMangledChar(s[end])) ++end;
      if (starts && end > at + 2) names.insert(s.substr(at, end - at));
      at = end;
    }
  }
  return names;
}

TEST(ItaniumDemangle, RealNamesReadAsLibstdcxxWritesThem) {
  const std::set<std::string> names = RefdataNames();
  ASSERT_GE(names.size(), 40u);
  size_t longest = 0;
  for (const std::string& name : names) {
    const DemangleResult result = DemangleBounded(name);
    ASSERT_EQ(result.status, DemangleStatus::kDemangled) << name;
    EXPECT_EQ(result.text, CxaDemangle(name)) << name;
    longest = std::max(longest, result.text.size());
  }
  EXPECT_GT(longest, 5000u);  // the DistributionNormal kernels: far below the limit
}

TEST(ItaniumDemangle, NamesThatDoubleAreKeptWhateverTheirLength) {
  // 150 bytes still fit (212,928 bytes of text would not: the expansion stops it first).
  EXPECT_EQ(DemangleBounded(DoublingName(100)).status, DemangleStatus::kDemangled);
  for (size_t bytes : {150, 212, 250, 2000, 16000}) {
    const DemangleResult result = DemangleBounded(DoublingName(bytes));
    EXPECT_EQ(result.status, DemangleStatus::kTooExpanded) << bytes;
    EXPECT_TRUE(result.text.empty());
    EXPECT_EQ(DemangleItanium(DoublingName(bytes)), DoublingName(bytes));
    EXPECT_EQ(DisplayName(DoublingName(bytes), DemangleMode::kShort), DoublingName(bytes));
    EXPECT_EQ(NormalizeName(DoublingName(bytes)), DoublingName(bytes));
  }
}

TEST(ItaniumDemangle, PackExpansionOverADoublingTypeIsRefusedBeforePrinting) {
  // Dp<type>: the printer searches the whole written-out type for a pack before printing
  // any of it, so only the expansion limit can stop this one.
  std::string name = DoublingName(300) + "DpS9_";
  EXPECT_EQ(DemangleBounded(name).status, DemangleStatus::kTooExpanded);
}

TEST(ItaniumDemangle, TextPastTheOutputLimitIsRefused) {
  // f(A*, A, A, ...) with a 5,000-letter A: few components, long text. Past the limit the
  // identifiers alone are too long, which is known before printing.
  const std::string a(5000, 'a');
  std::string fits = "_Z1fP5000" + a;
  std::string over = fits;
  std::string expected = "f(" + a + "*";
  for (int i = 0; i < 11; ++i) {
    fits += "S_";
    expected += ", " + a;
  }
  expected += ")";
  for (int i = 0; i < 14; ++i) over += "S_";  // 15 x 5,002 bytes
  const DemangleResult ok = DemangleBounded(fits);
  ASSERT_EQ(ok.status, DemangleStatus::kDemangled);
  EXPECT_EQ(ok.text, expected);
  EXPECT_LE(ok.text.size(), kMaxDemangledBytes);
  EXPECT_EQ(DemangleBounded(over).status, DemangleStatus::kOutputTooLong);
  EXPECT_EQ(DemangleItanium(over), over);
}

TEST(ItaniumDemangle, TextPastTheOutputLimitThroughTemplateParameters) {
  // void f<A>(A, A, ...): each T_ prints A again, which only printing finds out, so the
  // printer is stopped by the output budget.
  const std::string a(5000, 'a');
  std::string fits = "_Z1fI5000" + a + "Ev";
  std::string over = fits;
  std::string expected = "void f<" + a + ">(";
  for (int i = 0; i < 11; ++i) {
    fits += "T_";
    expected += (i == 0 ? "" : ", ") + a;
  }
  expected += ")";
  for (int i = 0; i < 14; ++i) over += "T_";
  const DemangleResult ok = DemangleBounded(fits);
  ASSERT_EQ(ok.status, DemangleStatus::kDemangled);
  EXPECT_EQ(ok.text, expected);
  EXPECT_EQ(DemangleBounded(over).status, DemangleStatus::kOutputTooLong);
  EXPECT_EQ(DisplayName(over, DemangleMode::kShort), over);
  // The buffer is reused: the next name is whole and alone.
  EXPECT_EQ(DemangleBounded("_Z3addPfS_S_i").text, "add(float*, float*, float*, int)");
}

TEST(ItaniumDemangle, IdentifiersInAPackExpansionMayPrintNothing) {
  // void f<>(): the pattern of an empty pack's expansion is not printed, however long its
  // identifiers (here 14 x 5,000 bytes: L<T>... 14 times, L<T> written once, then S2_).
  std::string name = "_Z1fIJEEvDp5000" + std::string(5000, 'c') + "IT_E";
  for (int i = 0; i < 13; ++i) name += "DpS2_";
  const DemangleResult result = DemangleBounded(name);
  ASSERT_EQ(result.status, DemangleStatus::kDemangled);
  EXPECT_EQ(result.text, "void f<>()");
}

TEST(ItaniumDemangle, InputLengthLimit) {
  // "_Z" + "<n>" + n letters + "v": f() with a long name.
  const auto name_of = [](size_t total) {
    const size_t letters = total - 2 - 5 - 1;
    return "_Z" + std::to_string(letters) + std::string(letters, 'a') + "v";
  };
  const std::string at_limit = name_of(kMaxMangledBytes);
  ASSERT_EQ(at_limit.size(), kMaxMangledBytes);
  EXPECT_EQ(DemangleBounded(at_limit).status, DemangleStatus::kDemangled);
  EXPECT_EQ(DemangleBounded(name_of(kMaxMangledBytes + 1)).status, DemangleStatus::kTooLong);
  EXPECT_EQ(DemangleBounded(name_of(1 << 20)).status, DemangleStatus::kTooLong);
}

TEST(ItaniumDemangle, WhatIsNotAValidMangledName) {
  EXPECT_EQ(DemangleBounded("").status, DemangleStatus::kNotMangled);
  EXPECT_EQ(DemangleBounded("i").status, DemangleStatus::kNotMangled);  // a type: not ours
  EXPECT_EQ(DemangleBounded("add_kernel").status, DemangleStatus::kNotMangled);
  EXPECT_EQ(DemangleBounded(std::string("_Z3foov\0x", 9)).status, DemangleStatus::kNotMangled);
  EXPECT_EQ(DemangleBounded("_Z").status, DemangleStatus::kInvalid);
  EXPECT_EQ(DemangleBounded("_Zfoo").status, DemangleStatus::kInvalid);
  EXPECT_EQ(DemangleBounded("_Z3foov_trailing").status, DemangleStatus::kInvalid);
  EXPECT_EQ(DemangleBounded("_Z1fIiEvT0_").status, DemangleStatus::kInvalid);  // no 2nd arg
}

}  // namespace
}  // namespace proton::viewer
