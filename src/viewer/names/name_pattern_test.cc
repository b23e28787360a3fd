// Tests for name_pattern: Python re.match semantics on PCRE2 (viewer.md §5.2).
#include "viewer/names/name_pattern.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace proton::viewer {
namespace {

bool Match(std::string_view pattern, std::string_view name) {
  Result<NamePattern> p = NamePattern::Compile(pattern, "--include");
  EXPECT_TRUE(p.ok()) << pattern << ": " << p.status().message();
  if (!p.ok()) return false;
  Result<bool> m = p->Matches(name);
  EXPECT_TRUE(m.ok()) << pattern << ": " << m.status().message();
  return m.ok() && *m;
}

std::string CompileError(std::string_view pattern, std::string_view option = "--include") {
  Result<NamePattern> p = NamePattern::Compile(pattern, option);
  return p.ok() ? "(compiled)" : p.status().message();
}

TEST(NamePattern, AnchoredPrefixMatch) {
  EXPECT_TRUE(Match("kernel_2", "kernel_2_1_1"));
  EXPECT_FALSE(Match("2_2", "kernel_2_2_2"));
  EXPECT_TRUE(Match(".*2_2", "kernel_2_2_2"));
  EXPECT_TRUE(Match("foo1", "foo1"));
  EXPECT_FALSE(Match("foo1", "xfoo1"));
  EXPECT_TRUE(Match("a|zz", "abc"));
  EXPECT_TRUE(Match("a|zz", "zzz"));
  EXPECT_FALSE(Match("a|zz", "bzz"));
  EXPECT_FALSE(Match("add$", "add_phase"));
  EXPECT_TRUE(Match("add$", "add"));
  EXPECT_TRUE(Match("add$", "add\n"));  // '$' also matches before a final newline
  EXPECT_TRUE(Match(".*o[02]", "foo0"));
  EXPECT_FALSE(Match(".*o[02]", "foo1"));
  EXPECT_TRUE(Match("Foo", "Foo"));
  EXPECT_FALSE(Match("foo", "Foo"));  // case-sensitive
}

TEST(NamePattern, EndOfStringZ) {
  EXPECT_TRUE(Match("add\\Z", "add"));
  EXPECT_FALSE(Match("add\\Z", "add\n"));  // Python's \Z is the very end
  EXPECT_FALSE(Match("add\\Z", "add_phase"));
  EXPECT_TRUE(Match("\\Aadd", "add"));
}

TEST(NamePattern, DotAndNewline) {
  EXPECT_FALSE(Match("a.b", "a\nb"));
  EXPECT_TRUE(Match("a.b", "a-b"));
  EXPECT_TRUE(Match("(?s)a.b", "a\nb"));
}

TEST(NamePattern, ClassesAndEscapes) {
  EXPECT_TRUE(Match("[a-c]+_", "abc_"));
  EXPECT_TRUE(Match("[^x]", "y"));
  EXPECT_FALSE(Match("[^x]", "x"));
  EXPECT_TRUE(Match("[]a]", "]"));
  EXPECT_TRUE(Match("\\d+", "123"));
  EXPECT_FALSE(Match("\\d", "x"));
  EXPECT_TRUE(Match("\\D", "x"));
  EXPECT_TRUE(Match("\\w+\\W", "ab-"));
  EXPECT_TRUE(Match("\\s\\S", " x"));
  EXPECT_TRUE(Match(".*phase\\b", "add_phase"));
  EXPECT_FALSE(Match(".*phase\\b", "add_phasex"));
  EXPECT_TRUE(Match("a\\Bb", "ab"));
  EXPECT_FALSE(Match("\\B", ""));    // Python's \B never matches in an empty string
  EXPECT_FALSE(Match("\\B", "ab"));  // position 0 of "ab" is a word boundary
  EXPECT_TRUE(Match("a(?#note)b", "ab"));
  EXPECT_TRUE(Match("\\.", "."));
  EXPECT_FALSE(Match("\\.", "x"));
  EXPECT_TRUE(Match("\\\\", "\\"));  // \\ matches one backslash
  EXPECT_TRUE(Match("\\x41", "A"));
  EXPECT_TRUE(Match("\\u00e9", "\xc3\xa9"));
  EXPECT_TRUE(Match("\\t", "\t"));
  EXPECT_TRUE(Match("\\v", "\v"));  // a vertical tab, not PCRE2's class
  EXPECT_FALSE(Match("\\v", "\n"));
  EXPECT_TRUE(Match("[\\b]", "\b"));
  EXPECT_TRUE(Match("[[:alpha:]]", ":]"));  // no POSIX classes in Python: '[' ':' 'a' ... then ']'
  EXPECT_FALSE(Match("[[:alpha:]]", "b"));
  EXPECT_TRUE(Match("\\101", "A"));  // octal
  EXPECT_TRUE(Match("\\0", std::string_view("\0", 1)));
  EXPECT_TRUE(Match("(a)\\1", "aa"));
  EXPECT_TRUE(Match("(?P<x>a)(?P=x)", "aa"));
  EXPECT_TRUE(Match("\xc3\xa9+", "\xc3\xa9\xc3\xa9"));
  EXPECT_TRUE(Match("\\w", "\xc3\xa9"));  // Unicode \w
  EXPECT_TRUE(Match("\\d", "\xd9\xa1"));  // Arabic-Indic digit one
}

TEST(NamePattern, GroupsQuantifiersLookaround) {
  EXPECT_TRUE(Match("(?:ab)+c", "ababc"));
  EXPECT_TRUE(Match("a*?b", "aab"));
  EXPECT_TRUE(Match("a+?", "a"));
  EXPECT_TRUE(Match("ab??", "a"));
  EXPECT_TRUE(Match("add(?=_)", "add_phase"));
  EXPECT_FALSE(Match("add(?=_)", "add"));
  EXPECT_TRUE(Match("add(?!_)", "add"));
  EXPECT_FALSE(Match("add(?!_)", "add_phase"));
  EXPECT_FALSE(Match("(?<=a)b", "b"));  // nothing before position 0
  EXPECT_TRUE(Match("a(?<=a)b", "ab"));
  EXPECT_TRUE(Match("a*+b", "aab"));     // possessive (Python 3.11)
  EXPECT_TRUE(Match("(?>a+)b", "aab"));  // atomic group (Python 3.11)
}

TEST(NamePattern, LiteralBraces) {
  EXPECT_TRUE(Match("a{", "a{"));
  EXPECT_TRUE(Match("a}", "a}"));
  EXPECT_TRUE(Match("}{", "}{"));
  EXPECT_TRUE(Match("a{2", "a{2"));
}

TEST(NamePattern, Refusals) {
  EXPECT_EQ(CompileError("[a-z]{3}_phase"),
            "curly braces are not supported in --include: '[a-z]{3}_phase'");
  EXPECT_EQ(CompileError("a{1,2}", "--exclude"),
            "curly braces are not supported in --exclude: 'a{1,2}'");
  EXPECT_EQ(CompileError("add\""), "double quotes are not supported in --include: 'add\"'");
  EXPECT_EQ(CompileError("{}\""), "curly braces are not supported in --include: '{}\"'");
  for (const char* bad : {"(",        ")",
                          "[",        "a\\",
                          "*a",       "a**",
                          "\\q",      "\\x4",
                          "\\u12",    "(?<name>a)",
                          "\\1",      "(a\\1)",
                          "[\\A]",    "[\\8]",
                          "(?P<1>a)", "(?P=nope)",
                          "a(?i)b",   "(?x)a",
                          "(?)",      "\\K",
                          "\\h",      "\\R",
                          "\\Q",      "\\e",
                          "\\G",      "\\N",
                          "\\p",      "\\k",
                          "\\c",      "\\g",
                          "(?|a)",    "(?R)",
                          "(*FAIL)",  "[z-a]",
                          "\\ud800",  "(?#x",
                          "\\B*",     "(?P<n>(?P=n))",
                          "a?(?#c)?"}) {
    EXPECT_EQ(CompileError(bad, "--exclude"),
              "invalid regular expression in --exclude: '" + std::string(bad) + "'")
        << bad;
  }
}

}  // namespace
}  // namespace proton::viewer

// Catastrophic backtracking: bounded cost, and the limit is an error, never "no match".
namespace proton::viewer {
namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Matches every name; returns the first error message, or "" when none.
std::string FirstError(std::string_view pattern, const std::vector<std::string>& names,
                       double& seconds) {
  const auto start = std::chrono::steady_clock::now();
  Result<NamePattern> p = NamePattern::Compile(pattern, "--include");
  EXPECT_TRUE(p.ok());
  std::string error;
  for (const std::string& name : names) {
    Result<bool> m = p->Matches(name);
    if (!m.ok()) {
      error = m.status().message();
      break;
    }
  }
  seconds = Seconds(start);
  return error;
}

TEST(NamePatternCost, NestedQuantifierIsBoundedAndReported) {
  std::vector<std::string> names;
  names.reserve(2000);
  for (int i = 0; i < 2000; ++i) names.push_back(std::string(30, 'a') + "b" + std::to_string(i));
  double seconds = 0;
  EXPECT_EQ(FirstError("(a+)+$", names, seconds),
            "cannot match --include '(a+)+$' against frame 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab0': "
            "too much backtracking (over 100000000 steps)");
  EXPECT_LT(seconds, 5.0);
}

TEST(NamePatternCost, ManyUnderscoresAreBounded) {
  std::vector<std::string> names;
  for (int i = 0; i < 1000; ++i) {
    std::string name = "fused";
    for (int k = 0; k < 22; ++k) name += "_x";
    names.push_back(name + "_kernel_" + std::to_string(i));
  }
  double seconds = 0;
  const std::string error = FirstError("(.*_)*kernel$", names, seconds);
  EXPECT_NE(error.find("cannot match --include '(.*_)*kernel$' against frame 'fused_x"),
            std::string::npos)
      << error;
  EXPECT_LT(seconds, 5.0);
}

TEST(NamePatternCost, LimitIsAnErrorNotANoMatch) {
  // Python's re keeps this frame (it turns a|a into a character set and matches the `a`
  // alternative); PCRE2 backtracks exponentially. Better an error than a dropped frame.
  Result<NamePattern> p = NamePattern::Compile("(?:a|a)*$|a", "--exclude");
  ASSERT_TRUE(p.ok());
  const std::string name = std::string(40, 'a') + "b";
  Result<bool> m = p->Matches(name);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "cannot match --exclude '(?:a|a)*$|a' against frame '" + name +
                                      "': too much backtracking (over 100000000 steps)");
}

TEST(NamePatternCost, ModerateBacktrackingStillAnswers) {
  // 2^15 paths: beyond the free steps, well within the budget; the answer is re.match's.
  Result<NamePattern> p = NamePattern::Compile("(a+)+$", "--include");
  ASSERT_TRUE(p.ok());
  for (int i = 0; i < 20; ++i) {
    Result<bool> m = p->Matches(std::string(15, 'a') + "b");
    ASSERT_TRUE(m.ok()) << m.status().message();
    EXPECT_FALSE(*m);
  }
  EXPECT_TRUE(p->Matches(std::string(15, 'a')).value());
}

}  // namespace
}  // namespace proton::viewer
