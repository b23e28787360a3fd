// Tests of the argparse engine: every argparse behaviour the commands rely on, with the
// messages in argparse's wording (CPython 3.11), over a small option table of each kind.
#include "util/argparse.h"

#include <gtest/gtest.h>

#include "util/test_support.h"

namespace proton {
namespace {

enum Id { kHelp, kList, kMetrics, kDepth, kDiff, kFormat, kHook, kExtra, kOptional };

// Options of each kind, registered in this order (it orders "could match" lists).
ArgParser TestParser(Positionals positionals, std::string (*quote)(std::string_view)) {
  return {{
              {.id = kHelp, .strings = {"-h", "--help"}, .ends_scan = true},
              {kList, {"-l", "--list"}},
              {kMetrics, {"-m", "--metrics"}, ArgValue::kOne},
              {kDepth, {"-d", "--depth"}, ArgValue::kOne},
              {kDiff, {"--diff-profile", "-diff"}, ArgValue::kOne},
              {kFormat, {"-f", "--format"}, ArgValue::kOne, {"full", "short"}},
              {kHook, {"-k", "--hook"}, ArgValue::kOne, {"triton"}, "None, 'triton'"},
              {.id = kExtra, .strings = {"--extra"}, .value = ArgValue::kOne, .exact_only = true},
              {.id = kOptional,
               .strings = {"--optional"},
               .value = ArgValue::kAttachedOnly,
               .choices = {"a", "b"},
               .exact_only = true},
          },
          quote,
          positionals};
}

// What a scan took, one "name=value" (or "name") per option, then the positionals.
struct Outcome {
  std::vector<std::string> taken;
  std::vector<std::string> positionals;
  bool ended = false;
};

Result<Outcome> Scan(const std::vector<std::string>& args,
                     Positionals positionals = Positionals::kCollect,
                     std::string (*quote)(std::string_view) = PythonRepr) {
  const ArgParser parser = TestParser(positionals, quote);
  Outcome outcome;
  auto take = [&](const ArgOption& option, const std::string* value) -> Status {
    if (option.id == kDepth && value != nullptr && *value == "bad") {
      return ArgumentError(option, "invalid int value: " + parser.quote(*value));
    }
    std::string entry(option.strings.back());
    if (value != nullptr) entry += "=" + *value;
    outcome.taken.push_back(entry);
    return Status();
  };
  PROTON_ASSIGN_OR_RETURN(ArgScan scan, ParseArgs(parser, args, take));
  outcome.positionals = std::move(scan.positionals);
  outcome.ended = scan.ended_by != nullptr;
  return outcome;
}

std::vector<std::string> Taken(const std::vector<std::string>& args) {
  return test::ExpectValue(Scan(args)).taken;
}

std::string ErrorOf(const std::vector<std::string>& args,
                    Positionals positionals = Positionals::kCollect) {
  return test::ExpectUsageError(Scan(args, positionals));
}

using Strings = std::vector<std::string>;

TEST(Argparse, ValueForms) {
  EXPECT_EQ(Taken({"-m", "x"}), Strings{"--metrics=x"});
  EXPECT_EQ(Taken({"--metrics", "x"}), Strings{"--metrics=x"});
  EXPECT_EQ(Taken({"--metrics=x=y"}), Strings{"--metrics=x=y"});
  EXPECT_EQ(Taken({"-mx"}), Strings{"--metrics=x"});
  EXPECT_EQ(Taken({"-m=x"}), Strings{"--metrics=x"});
  EXPECT_EQ(Taken({"--metrics="}), Strings{"--metrics="});
  EXPECT_EQ(Taken({"-diff", "o"}), Strings{"-diff=o"});
  EXPECT_EQ(Taken({"-diff=o"}), Strings{"-diff=o"});
  EXPECT_EQ(Taken({"-d5"}), Strings{"--depth=5"});
  EXPECT_EQ(Taken({"-m", "a", "-m", "b"}), (Strings{"--metrics=a", "--metrics=b"}));
}

TEST(Argparse, LongPrefixes) {
  EXPECT_EQ(Taken({"--met", "x"}), Strings{"--metrics=x"});
  EXPECT_EQ(Taken({"--li"}), Strings{"--list"});
  EXPECT_EQ(Taken({"--de=3"}), Strings{"--depth=3"});
  EXPECT_EQ(ErrorOf({"--d", "1"}), "ambiguous option: --d could match --depth, --diff-profile");
  EXPECT_EQ(ErrorOf({"--d=1"}), "ambiguous option: --d=1 could match --depth, --diff-profile");
  EXPECT_EQ(ErrorOf({"-di"}), "ambiguous option: -di could match -d, -diff");
  EXPECT_EQ(ErrorOf({"--h"}), "ambiguous option: --h could match --help, --hook");
  // Exact-only options are never prefixes, and take no part in other options' prefixes.
  EXPECT_EQ(ErrorOf({"--ext", "x"}), "unrecognized arguments: --ext");
  EXPECT_EQ(Taken({"--extra", "x", "--extra=y"}), (Strings{"--extra=x", "--extra=y"}));
}

TEST(Argparse, FlagClusters) {
  EXPECT_EQ(Taken({"-lmx"}), (Strings{"--list", "--metrics=x"}));
  EXPECT_EQ(Taken({"-ll"}), (Strings{"--list", "--list"}));
  EXPECT_EQ(ErrorOf({"-lx"}), "argument -l/--list: ignored explicit argument 'x'");
  EXPECT_EQ(ErrorOf({"--list=x"}), "argument -l/--list: ignored explicit argument 'x'");
  EXPECT_EQ(ErrorOf({"-l="}), "argument -l/--list: ignored explicit argument ''");
  EXPECT_EQ(ErrorOf({"-lm"}), "argument -m/--metrics: expected one argument");
  // The whole cluster is read before any of it is taken: the later error wins over -h.
  EXPECT_EQ(ErrorOf({"-hx"}), "argument -h/--help: ignored explicit argument 'x'");
  Outcome help = test::ExpectValue(Scan({"-lh", "-m"}));
  EXPECT_TRUE(help.ended);
  EXPECT_EQ(help.taken, (Strings{"--list", "--help"}));
}

TEST(Argparse, MissingValues) {
  EXPECT_EQ(ErrorOf({"-m"}), "argument -m/--metrics: expected one argument");
  EXPECT_EQ(ErrorOf({"-m", "-l"}), "argument -m/--metrics: expected one argument");
  EXPECT_EQ(ErrorOf({"-m", "--"}), "argument -m/--metrics: expected one argument");
  EXPECT_EQ(ErrorOf({"-m", "--bogus"}), "argument -m/--metrics: expected one argument");
  EXPECT_EQ(ErrorOf({"f", "-diff"}), "argument --diff-profile/-diff: expected one argument");
  EXPECT_EQ(ErrorOf({"--extra"}), "argument --extra: expected one argument");
}

TEST(Argparse, WhatIsAPositional) {
  EXPECT_EQ(Taken({"-m", "-5"}), Strings{"--metrics=-5"});
  EXPECT_EQ(Taken({"-m", "-.5"}), Strings{"--metrics=-.5"});
  EXPECT_EQ(Taken({"-m", "-\xd9\xa1"}), Strings{"--metrics=-\xd9\xa1"});  // "-١"
  EXPECT_EQ(Taken({"-m", "-"}), Strings{"--metrics=-"});
  EXPECT_EQ(Taken({"-m", "-a b"}), Strings{"--metrics=-a b"});
  EXPECT_EQ(ErrorOf({"-m", "-1e5"}), "argument -m/--metrics: expected one argument");
  EXPECT_EQ(ErrorOf({"-m", "-1."}), "argument -m/--metrics: expected one argument");
  Outcome outcome = test::ExpectValue(Scan({"-", "-5", "-x y", "", "a"}));
  EXPECT_EQ(outcome.positionals, (Strings{"-", "-5", "-x y", "", "a"}));
  EXPECT_TRUE(LooksLikeNegativeNumber("-1\n"));
  EXPECT_FALSE(LooksLikeNegativeNumber("-1.2.3"));
  EXPECT_FALSE(LooksLikeNegativeNumber("-"));
  EXPECT_FALSE(LooksLikeNegativeNumber("-."));
}

TEST(Argparse, DoubleDash) {
  Outcome outcome = test::ExpectValue(Scan({"-l", "--", "-m", "--", "x"}));
  EXPECT_EQ(outcome.taken, Strings{"--list"});
  EXPECT_EQ(outcome.positionals, (Strings{"-m", "--", "x"}));
}

TEST(Argparse, UnknownOptionsAreReportedAfterTheScan) {
  EXPECT_EQ(ErrorOf({"--foo", "-x", "a", "--bar=1"}), "unrecognized arguments: --foo -x --bar=1");
  EXPECT_EQ(ErrorOf({"--foo", "-d", "bad"}), "argument -d/--depth: invalid int value: 'bad'");
  // An option that ends the scan wins over earlier unknown options.
  EXPECT_TRUE(test::ExpectValue(Scan({"--foo", "-h"})).ended);
}

TEST(Argparse, TakenInOrderUpToTheEnd) {
  EXPECT_EQ(ErrorOf({"-d", "bad", "-h"}), "argument -d/--depth: invalid int value: 'bad'");
  Outcome help = test::ExpectValue(Scan({"-m", "x", "-h", "-d", "bad", "-f", "no"}));
  EXPECT_TRUE(help.ended);
  EXPECT_EQ(help.taken, (Strings{"--metrics=x", "--help"}));
  // Collected arguments are all classified first: an ambiguous prefix wins over values.
  EXPECT_EQ(ErrorOf({"-d", "bad", "--d"}),
            "ambiguous option: --d could match --depth, --diff-profile");
}

TEST(Argparse, Choices) {
  EXPECT_EQ(Taken({"-f", "short"}), Strings{"--format=short"});
  EXPECT_EQ(ErrorOf({"-f", "Short"}),
            "argument -f/--format: invalid choice: 'Short' (choose from 'full', 'short')");
  EXPECT_EQ(ErrorOf({"--hook=None"}),
            "argument -k/--hook: invalid choice: 'None' (choose from None, 'triton')");
  EXPECT_EQ(test::ExpectUsageError(Scan({"-f", "it's"}, Positionals::kCollect, QuoteVerbatim)),
            "argument -f/--format: invalid choice: 'it's' (choose from 'full', 'short')");
  EXPECT_EQ(ErrorOf({"-f", "it's"}),
            "argument -f/--format: invalid choice: \"it's\" (choose from 'full', 'short')");
}

TEST(Argparse, ValueOnlyAfterEquals) {
  Outcome bare = test::ExpectValue(Scan({"--optional", "b"}));
  EXPECT_EQ(bare.taken, Strings{"--optional"});
  EXPECT_EQ(bare.positionals, Strings{"b"});
  EXPECT_EQ(Taken({"--optional=b"}), Strings{"--optional=b"});
  EXPECT_EQ(ErrorOf({"--optional="}),
            "argument --optional: invalid choice: '' (choose from 'a', 'b')");
  EXPECT_EQ(ErrorOf({"--opt"}), "unrecognized arguments: --opt");
}

TEST(Argparse, RemainderStartsAtTheFirstPositional) {
  auto remainder = [](const std::vector<std::string>& args) {
    return test::ExpectValue(Scan(args, Positionals::kRemainder));
  };
  Outcome run = remainder({"-m", "x", "s.py", "-m", "y", "--d", "--"});
  EXPECT_EQ(run.taken, Strings{"--metrics=x"});
  EXPECT_EQ(run.positionals, (Strings{"s.py", "-m", "y", "--d", "--"}));
  EXPECT_EQ(remainder({"--", "-l", "--"}).positionals, (Strings{"-l", "--"}));
  EXPECT_EQ(remainder({"-l", "--"}).positionals, Strings{});
  EXPECT_TRUE(remainder({"-h", "--d"}).ended);
  EXPECT_EQ(ErrorOf({"--foo", "s.py"}, Positionals::kRemainder), "unrecognized arguments: --foo");
  // Options are classified as they are reached: the first error in the scan wins.
  EXPECT_EQ(ErrorOf({"-d", "bad", "--d"}, Positionals::kRemainder),
            "argument -d/--depth: invalid int value: 'bad'");
}

TEST(Argparse, Names) {
  const ArgParser parser = TestParser(Positionals::kCollect, PythonRepr);
  EXPECT_EQ(ArgumentName(OptionWithId(parser, kDiff)), "--diff-profile/-diff");
  EXPECT_EQ(ArgumentError(OptionWithId(parser, kMetrics), "empty").message(),
            "argument -m/--metrics: empty");
}

TEST(Argparse, Quoting) {
  EXPECT_EQ(PythonRepr("a"), "'a'");
  EXPECT_EQ(PythonRepr("it's"), "\"it's\"");
  EXPECT_EQ(PythonRepr("a'\"b"), "'a\\'\"b'");
  EXPECT_EQ(PythonRepr("a\\b\n\t\r\x01\x7f"), "'a\\\\b\\n\\t\\r\\x01\\x7f'");
  EXPECT_EQ(QuoteVerbatim("it's"), "'it's'");
}

}  // namespace
}  // namespace proton
