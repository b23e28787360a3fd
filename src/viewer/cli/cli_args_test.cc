// Tests for cli_args: argparse-exact scanning (viewer.md §2.3) and the post-scan checks,
// from the spec's examples and the opt_* / err_* compatibility cases.
#include "viewer/cli/cli_args.h"

#include <gtest/gtest.h>

#include <sstream>

#include "util/test_support.h"
#include "viewer/sql/sql_command.h"

namespace proton::viewer {
namespace {

ViewerOptions Parse(const std::vector<std::string>& args) {
  return test::ExpectValue(ParseViewerArgs(args));
}

std::string Error(const std::vector<std::string>& args) {
  return test::ExpectUsageError(ParseViewerArgs(args));
}

TEST(CliArgs, Defaults) {
  ViewerOptions a = Parse({"f.json"});
  EXPECT_EQ(a.input.file(), "f.json");
  EXPECT_FALSE(a.output.list);
  EXPECT_TRUE(a.view.metrics.empty());
  EXPECT_EQ(a.view.depth, 100);
  EXPECT_EQ(a.view.format, NameFormat::kFull);
  EXPECT_FALSE(a.view.has_threshold);
  EXPECT_FALSE(a.view.print_sorted);
  EXPECT_EQ(a.input.diff_profile, "");
}

TEST(CliArgs, ValueForms) {
  EXPECT_EQ(Parse({"--metrics", "time/us", "f"}).view.metrics, std::vector<std::string>{"time/us"});
  EXPECT_EQ(Parse({"--metrics=time/us", "f"}).view.metrics, std::vector<std::string>{"time/us"});
  EXPECT_EQ(Parse({"-mtime/us", "f"}).view.metrics, std::vector<std::string>{"time/us"});
  EXPECT_EQ(Parse({"-m=time/us", "f"}).view.metrics, std::vector<std::string>{"time/us"});
  EXPECT_EQ(Parse({"-d1", "f"}).view.depth, 1);
  EXPECT_EQ(Parse({"-d5", "f"}).view.depth, 5);
  EXPECT_EQ(Parse({"-d=7", "f"}).view.depth, 7);
  EXPECT_EQ(Parse({"--depth=2", "f"}).view.depth, 2);
  EXPECT_EQ(Parse({"-diff", "o", "f"}).input.diff_profile, "o");
  EXPECT_EQ(Parse({"-diff=o", "f"}).input.diff_profile, "o");
  EXPECT_EQ(Parse({"--diff-profile", "o", "f"}).input.diff_profile, "o");
  EXPECT_EQ(Parse({"-f", "function_line", "f"}).view.format, NameFormat::kFunctionLine);
  EXPECT_EQ(Parse({"--format=file_function", "f"}).view.format, NameFormat::kFileFunction);
}

TEST(CliArgs, Prefixes) {
  ViewerOptions a = Parse({"--met", "time/us", "--inc", "add", "--print", "f"});
  EXPECT_EQ(a.view.metrics, std::vector<std::string>{"time/us"});
  EXPECT_EQ(a.view.include, "add");
  EXPECT_TRUE(a.view.print_sorted);
  EXPECT_TRUE(Parse({"--li", "f"}).output.list);
  EXPECT_TRUE(Parse({"--h", "f"}).help);
  EXPECT_EQ(Parse({"--de", "3", "f"}).view.depth, 3);
  EXPECT_EQ(Parse({"--diff", "o", "f"}).input.diff_profile, "o");
  EXPECT_EQ(Error({"--d", "1", "-m", "time/us", "f"}),
            "ambiguous option: --d could match --depth, --diff-profile");
  EXPECT_EQ(Error({"-dif", "x", "f"}), "ambiguous option: -dif could match -d, -diff");
  EXPECT_EQ(Error({"-di", "x", "f"}), "ambiguous option: -di could match -d, -diff");
  EXPECT_EQ(Error({"--d=1", "f"}), "ambiguous option: --d=1 could match --depth, --diff-profile");
  // Ambiguity is found while classifying, before any value is converted.
  EXPECT_EQ(Error({"-f", "short", "--d", "1", "f"}),
            "ambiguous option: --d could match --depth, --diff-profile");
}

TEST(CliArgs, Clusters) {
  ViewerOptions a = Parse({"-lmtime/us", "f"});
  EXPECT_TRUE(a.output.list);
  EXPECT_TRUE(Parse({"-lh", "f"}).help);
  EXPECT_TRUE(Parse({"-hl"}).help);
  EXPECT_EQ(Error({"-lx", "f"}), "argument -l/--list: ignored explicit argument 'x'");
  EXPECT_EQ(Error({"--list=x", "f"}), "argument -l/--list: ignored explicit argument 'x'");
  EXPECT_EQ(Error({"--list=yes", "f"}), "argument -l/--list: ignored explicit argument 'yes'");
  EXPECT_EQ(Error({"--print-sorted=1", "f"}),
            "argument --print-sorted: ignored explicit argument '1'");
  EXPECT_EQ(Error({"-l=", "f"}), "argument -l/--list: ignored explicit argument ''");
  // The error later in a cluster wins over -h earlier in it.
  EXPECT_EQ(Error({"-hx", "f"}), "argument -h/--help: ignored explicit argument 'x'");
  EXPECT_EQ(Error({"-lm"}), "argument -m/--metrics: expected one argument");
}

TEST(CliArgs, MissingValuesAndNegativeNumbers) {
  EXPECT_EQ(Error({"-m"}), "argument -m/--metrics: expected one argument");
  EXPECT_EQ(Error({"-m", "-l", "f"}), "argument -m/--metrics: expected one argument");
  EXPECT_EQ(Error({"f", "-diff"}), "argument --diff-profile/-diff: expected one argument");
  EXPECT_EQ(Parse({"-m", "t", "-t", "-1", "f"}).view.threshold, -1.0);
  EXPECT_EQ(Parse({"-m", "t", "-t", "-.5", "f"}).view.threshold, -0.5);
  EXPECT_EQ(Parse({"-d", "-2", "f"}).view.depth, -2);
  EXPECT_EQ(Error({"-m", "t", "-t", "-1e5", "f"}),
            "argument -t/--threshold: expected one argument");
  EXPECT_EQ(Error({"-t", "-1.", "f"}), "argument -t/--threshold: expected one argument");
  EXPECT_EQ(Error({"-i", "-foo", "f"}), "argument -i/--include: expected one argument");
  EXPECT_EQ(Parse({"-t=-1e5", "f"}).view.threshold, -1e5);
  EXPECT_EQ(Parse({"-i=-foo", "f"}).view.include, "-foo");
  // A "-..." argument with a space is not an option (argparse), so it can be a value.
  EXPECT_EQ(Parse({"-i", "-a b", "f"}).view.include, "-a b");
  // "-" is positional (standard input), also as a value.
  EXPECT_EQ(Parse({"-"}).input.file(), "-");
  EXPECT_EQ(Parse({"-diff", "-", "f"}).input.diff_profile, "-");
  // A negative number alone is a positional argument.
  EXPECT_EQ(Parse({"-5"}).input.file(), "-5");
  EXPECT_EQ(Parse({"-\xd9\xa1"}).input.file(), "-\xd9\xa1");  // "-١": \d is Unicode in argparse
  EXPECT_EQ(Parse({"-m", "t", "-t", "-\xd9\xa1", "f"}).view.threshold, -1.0);
  EXPECT_EQ(Error({"-1.2.3"}), "unrecognized arguments: -1.2.3");
}

TEST(CliArgs, DoubleDashAndRepeats) {
  ViewerOptions a = Parse({"-m", "time/us", "-d", "2", "--", "f"});
  EXPECT_EQ(a.input.file(), "f");
  EXPECT_EQ(a.view.depth, 2);
  EXPECT_EQ(Parse({"--", "-l"}).input.file(), "-l");
  EXPECT_FALSE(Parse({"--", "-l"}).output.list);
  EXPECT_EQ(Error({"-m", "--", "f"}), "argument -m/--metrics: expected one argument");
  EXPECT_EQ(Error({"--", "a", "--"}), "Must specify exactly one file to read (got 2)");
  ViewerOptions r = Parse({"-m", "count", "-m", "time/us", "-d", "3", "-d", "1", "f"});
  EXPECT_EQ(r.view.metrics, std::vector<std::string>{"time/us"});
  EXPECT_EQ(r.view.depth, 1);
}

TEST(CliArgs, ValueTypes) {
  EXPECT_EQ(Error({"-t", "x", "f"}), "argument -t/--threshold: invalid float value: 'x'");
  EXPECT_EQ(Error({"-d", "1.5", "f"}), "argument -d/--depth: invalid int value: '1.5'");
  EXPECT_EQ(Error({"-d", "0x10", "f"}), "argument -d/--depth: invalid int value: '0x10'");
  EXPECT_EQ(Error({"-m", "t", "-t", "inf", "f"}),
            "argument -t/--threshold: threshold must be a finite number: 'inf'");
  EXPECT_EQ(Error({"-m", "t", "-t", "NaN", "f"}),
            "argument -t/--threshold: threshold must be a finite number: 'NaN'");
  EXPECT_EQ(Error({"-m", "t", "-t", "1e400", "f"}),
            "argument -t/--threshold: threshold must be a finite number: '1e400'");
  // Accepted by the scan (like float()): checked after it, and only when metrics are given.
  EXPECT_TRUE(Parse({"-t", "inf", "-h"}).help);
  EXPECT_EQ(Error({"-t", "nan", "-m"}), "argument -m/--metrics: expected one argument");
  EXPECT_EQ(Error({"-m", "t", "-t", "inf", "-diff", "-", "-"}),
            "standard input ('-') can only be read once");
  EXPECT_TRUE(Parse({"-l", "-t", "inf", "f"}).output.list);
  EXPECT_TRUE(Parse({"-t", "inf", "f"}).view.metrics.empty());
  EXPECT_EQ(Parse({"-m", "t", "-t", "inf", "-t", "2", "f"}).view.threshold, 2.0);
  EXPECT_EQ(Error({"-f", "short", "f"}),
            "argument -f/--format: invalid choice: 'short' (choose from 'full', "
            "'file_function_line', 'function_line', 'file_function')");
  ViewerOptions a = Parse({"-t", " 1_000 ", "f"});
  EXPECT_EQ(a.view.threshold, 1000.0);
  EXPECT_EQ(a.view.threshold_text, " 1_000 ");
  EXPECT_TRUE(a.view.has_threshold);
  EXPECT_FALSE(Parse({"-t", "0", "f"}).view.has_threshold);
  EXPECT_FALSE(Parse({"-t", "-0.0", "f"}).view.has_threshold);
  EXPECT_EQ(Parse({"-d", "99999999999999999999", "f"}).view.depth, INT64_MAX);
}

TEST(CliArgs, HelpIsTakenWhenReached) {
  EXPECT_TRUE(Parse({"-h", "-f", "short"}).help);
  EXPECT_EQ(Error({"-f", "short", "-h"}),
            "argument -f/--format: invalid choice: 'short' (choose from 'full', "
            "'file_function_line', 'function_line', 'file_function')");
  EXPECT_TRUE(Parse({"--help"}).help);  // no FILE needed
}

TEST(CliArgs, PostScanChecksInOrder) {
  EXPECT_EQ(Error({"-m", "time/us", "--foo", "f"}), "unrecognized arguments: --foo");
  EXPECT_EQ(Error({"--foo", "-x", "--bar=1"}), "unrecognized arguments: --foo -x --bar=1");
  EXPECT_EQ(Error({"-m", "time/ns"}), "Must specify a file to read");
  EXPECT_EQ(Error({"-m", "time/ns", "a", "b"}), "Must specify exactly one file to read (got 2)");
  EXPECT_EQ(Error({"-i", "a", "-e", "b"}), "Must specify a file to read");
  EXPECT_EQ(Error({"-i", "a", "-e", "b", "f"}), "Cannot specify both include and exclude");
  ViewerOptions a = Parse({"-e", "", "-i", "add", "f"});
  EXPECT_EQ(a.view.include, "add");
  EXPECT_EQ(a.view.exclude, "");
  EXPECT_EQ(Error({"-m", "time/us,", "f"}),
            "argument -m/--metrics: empty metric name in 'time/us,'");
  EXPECT_EQ(Error({"-m", ",", "f"}), "argument -m/--metrics: empty metric name in ','");
  EXPECT_EQ(Error({"-m", "a, ,b", "f"}), "argument -m/--metrics: empty metric name in 'a, ,b'");
  EXPECT_TRUE(Parse({"-m", "", "f"}).view.metrics.empty());
  EXPECT_EQ(Parse({"-m", " time/ns ,\tcount ", "f"}).view.metrics,
            (std::vector<std::string>{"time/ns", "count"}));
  EXPECT_EQ(Error({"-m", "t", "-diff", "-", "-"}), "standard input ('-') can only be read once");
  EXPECT_EQ(Error({"-i", "a", "-e", "b", "-m", ",", "f"}),
            "Cannot specify both include and exclude");
  // -l ignores -m and --diff-profile (only the include/exclude check applies).
  EXPECT_TRUE(Parse({"-l", "-m", "time/us,", "f"}).output.list);
  EXPECT_EQ(Error({"-l", "-i", "a", "-e", "b", "f"}), "Cannot specify both include and exclude");
}

TEST(CliArgs, UsageAndHelpText) {
  EXPECT_EQ(UsageText(),
            "usage: proton-viewer [-h] [-l] [-m METRICS] [-i INCLUDE] [-e EXCLUDE]\n"
            "                     [-t THRESHOLD] [-d DEPTH]\n"
            "                     [-f {full,file_function_line,function_line,file_function}]\n"
            "                     [--print-sorted] [--diff-profile DIFF_PROFILE]\n");
  const std::string help(HelpText());
  ASSERT_EQ(help.substr(0, UsageText().size()), UsageText());
  EXPECT_EQ(help[UsageText().size()], '\n');
  EXPECT_NE(help.find("\noptions:\n"), std::string::npos);
  for (const char* option :
       {"-h, --help", "-l, --list", "--metrics", "--include", "--exclude", "--threshold", "--depth",
        "--format", "--print-sorted", "--diff-profile", "-diff", "case-insensitive", "default: 100",
        "tflop", "util", "--fail-above", "--match", "--export", "--demangle[={full,short}]"}) {
    EXPECT_NE(help.find(option), std::string::npos) << option;
  }
  std::istringstream lines(help);
  std::string line;
  while (std::getline(lines, line)) EXPECT_LE(line.size(), 100u) << line;
}

}  // namespace
}  // namespace proton::viewer

namespace proton::viewer {
namespace {

// Our own options (§11.6-§11.8): full spellings only, so the reference's abbreviations keep
// their meaning.
TEST(CliArgs, ExtensionsAreFullSpellingsOnly) {
  EXPECT_EQ(Parse({"--m", "time/us", "f"}).view.metrics, std::vector<std::string>{"time/us"});
  EXPECT_EQ(Parse({"--ex", "x", "f"}).view.exclude, "x");
  EXPECT_EQ(Parse({"--f", "function_line", "f"}).view.format, NameFormat::kFunctionLine);
  EXPECT_EQ(Error({"--ma", "exact", "f"}), "unrecognized arguments: --ma");
  EXPECT_EQ(Error({"--fail", "1", "-m", "t", "-diff", "g", "f"}), "unrecognized arguments: --fail");
  EXPECT_EQ(Error({"--exp", "a.csv", "-m", "t", "f"}), "unrecognized arguments: --exp");
}

TEST(CliArgs, FailAboveMatchExport) {
  ViewerOptions a = Parse({"-m", "time/us", "--fail-above", "10,5e3", "--match=normalized",
                           "--export", "out.jsonl", "-diff", "old", "new"});
  EXPECT_TRUE(a.output.has_fail_above);
  EXPECT_EQ(a.output.fail_above_pct, 10);
  EXPECT_EQ(a.output.fail_above_min, 5000);
  EXPECT_EQ(a.view.match, MatchMode::kNormalized);
  EXPECT_EQ(a.output.export_path, "out.jsonl");
  ViewerOptions b = Parse({"-m", "t", "--fail-above=2.5", "-diff", "old", "new"});
  EXPECT_EQ(b.output.fail_above_pct, 2.5);
  EXPECT_EQ(b.output.fail_above_min, 0);
  EXPECT_EQ(b.view.match, MatchMode::kExact);
  EXPECT_EQ(Parse({"-m", "t", "--export", "x.csv", "f"}).output.export_path, "x.csv");
}

TEST(CliArgs, FailAboveMatchExportErrors) {
  const std::string bad = "argument --fail-above: expected PCT[,MIN] (non-negative numbers): '";
  for (const char* v : {"x", "", "1,", ",1", "-1", "1,-2", "nan", "inf", "1,2,3"}) {
    EXPECT_EQ(Error({"-m", "t", "--fail-above=" + std::string(v), "-diff", "o", "f"}),
              bad + v + "'");
  }
  EXPECT_EQ(Error({"-m", "t", "--fail-above", "10", "f"}), "--fail-above needs --diff-profile");
  EXPECT_EQ(Error({"--fail-above", "10", "-diff", "o", "f"}), "--fail-above needs a metric (-m)");
  EXPECT_EQ(Error({"--match", "fuzzy", "f"}),
            "argument --match: invalid choice: 'fuzzy' (choose from 'exact', 'normalized')");
  EXPECT_EQ(
      Error({"-m", "t", "--export", "out.json", "f"}),
      "argument --export: FILE must end in .csv, .jsonl, .sqlite or .perfetto_trace: 'out.json'");
  EXPECT_EQ(Error({"--export", "out.csv", "f"}), "--export needs a metric (-m)");
}

TEST(CliArgs, SqlAndTheDatabaseExport) {
  if (!SqliteAvailable()) GTEST_SKIP() << "built without SQLite";
  // Several FILEs go into one database without --merge, and no -m is needed.
  ViewerOptions a = Parse({"--export", "db.sqlite", "a", "b", "c"});
  EXPECT_EQ(a.input.files.size(), 3u);
  EXPECT_EQ(a.output.export_path, "db.sqlite");
  a = Parse({"--sql", "top_kernels", "a", "b"});
  EXPECT_TRUE(a.output.has_sql);
  EXPECT_EQ(a.output.sql, "top_kernels");
  EXPECT_TRUE(Parse({"--sql", "list"}).input.files.empty());  // no FILE needed
  EXPECT_EQ(Parse({"--sql", "SELECT 1", "-m", "util", "--export", "r.csv", "a"}).view.metrics,
            std::vector<std::string>{"util"});
  EXPECT_EQ(Parse({"--sql", "SELECT 1", "--merge", "a", "b"}).input.merge, MergeMode::kStats);
  // With -m the tree is printed, so one FILE (or --merge) as always.
  EXPECT_EQ(Error({"-m", "time", "--export", "db.sqlite", "a", "b"}),
            "Must specify exactly one file to read (got 2)");
  EXPECT_EQ(Error({"--sql", "", "a"}), "argument --sql: QUERY must not be empty");
  EXPECT_EQ(Error({"--sql", "q"}), "Must specify a file to read");
  EXPECT_EQ(Error({"--sql", "q", "-i", "x", "a"}), "--sql cannot be combined with -i/--include");
  EXPECT_EQ(Error({"--sql", "q", "-d", "2", "a"}), "--sql cannot be combined with -d/--depth");
  EXPECT_EQ(Error({"--sql", "q", "--html", "p.html", "a"}), "--sql cannot be combined with --html");
  EXPECT_EQ(Error({"--sql", "q", "-diff", "o", "a"}),
            "--sql cannot be combined with --diff-profile/-diff");
  EXPECT_EQ(Error({"--sq", "q", "a"}), "unrecognized arguments: --sq");  // full spelling only
  EXPECT_EQ(Error({"-m", "t", "--export", "db.sqlite", "-"}),
            "standard input ('-') can only be read once: --export FILE.sqlite with -m reads "
            "every FILE again after the tree; name the file instead");
  EXPECT_EQ(Parse({"--export", "db.sqlite", "-"}).input.file(), "-");
}

// --export FILE.perfetto_trace (§11.17): any number of FILEs, and no option about trees.
TEST(CliArgs, TraceExport) {
  const ViewerOptions a = Parse({"--export", "all.perfetto_trace", "r0", "r1", "-", "r3"});
  EXPECT_EQ(a.output.export_path, "all.perfetto_trace");
  EXPECT_EQ(a.input.files, (std::vector<std::string>{"r0", "r1", "-", "r3"}));
  EXPECT_TRUE(a.view.metrics.empty());
  EXPECT_EQ(Parse({"r0", "--export=o.perfetto_trace"}).input.files.size(), 1u);
  const std::string refused = "--export .perfetto_trace cannot be combined with ";
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"-m", "time"}, "-m/--metrics"},
      {{"--merge"}, "--merge"},
      {{"-l"}, "-l/--list"},
      {{"-t", "0"}, "-t/--threshold"},
      {{"-d", "100"}, "-d/--depth"},
      {{"--diff-profile", "x"}, "--diff-profile/-diff"},
      {{"--html", "p.html"}, "--html"},
      {{"--demangle"}, "--demangle"},
  };
  for (const auto& [extra, option] : cases) {
    std::vector<std::string> argv = {"--export", "o.perfetto_trace", "r0", "r1"};
    argv.insert(argv.begin(), extra.begin(), extra.end());
    EXPECT_EQ(Error(argv), refused + option);
  }
  EXPECT_EQ(Error({"--export", "o.perfetto_trace", "-", "r1", "-"}),
            "standard input ('-') can only be read once");
  EXPECT_EQ(Error({"--export", "o.perfetto_trace"}), "Must specify a file to read");
}

TEST(CliArgs, Demangle) {
  EXPECT_EQ(Parse({"f"}).view.demangle, DemangleMode::kOff);
  EXPECT_EQ(Parse({"--demangle", "f"}).view.demangle, DemangleMode::kFull);
  EXPECT_EQ(Parse({"--demangle=full", "f"}).view.demangle, DemangleMode::kFull);
  EXPECT_EQ(Parse({"--demangle=short", "f"}).view.demangle, DemangleMode::kShort);
  // The value is only ever attached: the next argument stays FILE.
  ViewerOptions a = Parse({"-m", "time", "--demangle", "short"});
  EXPECT_EQ(a.view.demangle, DemangleMode::kFull);
  EXPECT_EQ(a.input.file(), "short");
  // Full spelling only (§11.6): --de and --dem keep their meaning or are unknown.
  EXPECT_EQ(Parse({"--de", "3", "f"}).view.depth, 3);
  EXPECT_EQ(Parse({"--de", "3", "f"}).view.demangle, DemangleMode::kOff);
  EXPECT_EQ(Error({"--dem", "f"}), "unrecognized arguments: --dem");
  EXPECT_EQ(Error({"--demangle=foo", "f"}),
            "argument --demangle: invalid choice: 'foo' (choose from 'full', 'short')");
  EXPECT_EQ(Error({"--demangle=", "f"}),
            "argument --demangle: invalid choice: '' (choose from 'full', 'short')");
}

}  // namespace
}  // namespace proton::viewer

namespace proton::viewer {
namespace {

// --html and --speedscope (§11.12): full spellings only; `--h` stays --help.
TEST(CliArgs, HtmlAndSpeedscope) {
  ViewerOptions a = Parse({"-m", "time/us", "--html", "p.html", "--speedscope=p.json", "f"});
  EXPECT_EQ(a.output.html_path, "p.html");
  EXPECT_EQ(a.output.speedscope_path, "p.json");
  EXPECT_EQ(Parse({"-m", "t", "--html=d.html", "-diff", "o", "f"}).output.html_path, "d.html");
  EXPECT_TRUE(Parse({"--h", "f"}).help);
  EXPECT_EQ(Error({"--ht", "x", "-m", "t", "f"}), "unrecognized arguments: --ht");
  EXPECT_EQ(Error({"--speed", "x", "-m", "t", "f"}), "unrecognized arguments: --speed");
  EXPECT_EQ(Error({"--html", "p.html", "f"}), "--html needs a metric (-m)");
  EXPECT_EQ(Error({"--speedscope", "p.json", "f"}), "--speedscope needs a metric (-m)");
  EXPECT_EQ(Error({"-m", "t", "--speedscope", "p.json", "-diff", "o", "f"}),
            "--speedscope cannot be combined with --diff-profile");
  EXPECT_EQ(Error({"-m", "t", "--html=", "f"}), "argument --html: FILE must not be empty");
  EXPECT_EQ(Error({"-m", "t", "--html"}), "argument --html: expected one argument");
  const std::string help(HelpText());
  EXPECT_NE(help.find("\n  --html FILE "), std::string::npos);
  EXPECT_NE(help.find("\n  --speedscope FILE "), std::string::npos);
}

TEST(CliArgs, MergeTakesEveryFileAndItsValueOnlyAfterEquals) {
  ViewerOptions a = Parse({"--merge", "-m", "time", "a.hatchet", "b.hatchet", "c.hatchet"});
  EXPECT_EQ(a.input.merge, MergeMode::kStats);
  EXPECT_EQ(a.input.files, (std::vector<std::string>{"a.hatchet", "b.hatchet", "c.hatchet"}));
  EXPECT_EQ(a.input.file(), "a.hatchet");
  EXPECT_EQ(Parse({"--merge=sum", "a", "b"}).input.merge, MergeMode::kSum);
  EXPECT_EQ(Parse({"--merge=stats", "a"}).input.merge, MergeMode::kStats);
  // Bare --merge does not take "sum" as its value: it is a FILE.
  EXPECT_EQ(Parse({"--merge", "sum", "a"}).input.files.size(), 2u);
}

TEST(CliArgs, MergeErrors) {
  EXPECT_EQ(Error({"--merge=max", "a", "b"}),
            "argument --merge: invalid choice: 'max' (choose from 'stats', 'sum')");
  EXPECT_EQ(Error({"--merge=", "a"}),
            "argument --merge: invalid choice: '' (choose from 'stats', 'sum')");
  EXPECT_EQ(Error({"a", "b"}), "Must specify exactly one file to read (got 2)");
  EXPECT_EQ(Error({"--merge", "-diff", "c", "a", "b"}),
            "--merge cannot be used with --diff-profile");
  EXPECT_EQ(Error({"--merge", "-l", "a", "b"}), "--merge cannot be used with -l/--list");
  EXPECT_EQ(Error({"--merge", "-", "a", "-"}), "standard input ('-') can only be read once");
}

TEST(CliArgs, MergeIsNeverAPrefixAndLeavesAbbreviationsAlone) {
  EXPECT_EQ(Error({"--mer", "a"}), "unrecognized arguments: --mer");
  ViewerOptions a = Parse({"--merge", "--m", "time", "--de", "2", "a", "b"});
  EXPECT_EQ(a.view.metrics, std::vector<std::string>{"time"});
  EXPECT_EQ(a.view.depth, 2);
}

// The typed checks the Python API calls give the parser's messages and values: the parser
// calls them itself.
TEST(CliArgs, TypedChecksAreTheParsers) {
  ViewOptions view;
  EXPECT_EQ(SetThreshold(view, "x").message(), Error({"-t", "x", "f"}));
  EXPECT_EQ(SetDepth(view, "1.5").message(), Error({"-d", "1.5", "f"}));
  EXPECT_EQ(SetFormat(view, "tree").message(), Error({"-f", "tree", "f"}));
  EXPECT_EQ(SetMetrics(view, "a,,b").message(), Error({"-m", "a,,b", "f"}));
  ASSERT_TRUE(SetThreshold(view, " 1_0 ").ok());
  ASSERT_TRUE(SetDepth(view, "-3").ok());
  ASSERT_TRUE(SetFormat(view, "file_function").ok());
  ASSERT_TRUE(SetMetrics(view, " a ,b").ok());
  const ViewOptions parsed =
      Parse({"-t", " 1_0 ", "-d", "-3", "-f", "file_function", "-m", " a ,b", "f"}).view;
  EXPECT_EQ(view.threshold, parsed.threshold);
  EXPECT_EQ(view.threshold_text, parsed.threshold_text);
  EXPECT_EQ(view.depth, parsed.depth);
  EXPECT_EQ(view.format, parsed.format);
  EXPECT_EQ(view.metrics, parsed.metrics);
  ASSERT_TRUE(SetThreshold(view, "inf").ok());
  EXPECT_EQ(CheckThresholdFinite(view).message(), Error({"-m", "a", "-t", "inf", "f"}));
  view.include = "a";
  view.exclude = "b";
  EXPECT_EQ(CheckIncludeExclude(view).message(), Error({"-i", "a", "-e", "b", "f"}));
}

}  // namespace
}  // namespace proton::viewer

namespace proton::viewer {
namespace {

// --follow, --stragglers and --baseline (§11.14-§11.16).
TEST(CliArgs, FollowTakesARunAndNoFile) {
  ViewerOptions a = Parse({"--follow", "out/run.rank*", "--follow-timeout", "2.5"});
  EXPECT_EQ(a.live.run, "out/run.rank*");
  EXPECT_TRUE(a.live.has_timeout);
  EXPECT_EQ(a.live.timeout_s, 2.5);
  EXPECT_EQ(a.live.timeout_text, "2.5");
  EXPECT_TRUE(a.input.files.empty());
  EXPECT_EQ(Parse({"--follow=run", "-m", "time/us"}).view.metrics,
            std::vector<std::string>{"time/us"});
  EXPECT_EQ(Error({"--follow", "run", "f"}), "--follow takes no FILE (got 1)");
  EXPECT_EQ(Error({"--follow", "run", "-m", "time/us,count"}),
            "--follow shows GPU time: -m must be one of time/s, time/ms, time/us, time/ns");
  EXPECT_EQ(Error({"--follow", "run", "-i", "x"}), "--follow cannot be used with -i/--include");
  EXPECT_EQ(Error({"--follow", "run", "--match=normalized"}),
            "--follow cannot be used with --match");
  EXPECT_EQ(Error({"--follow-timeout", "1", "f"}), "--follow-timeout needs --follow");
  EXPECT_EQ(Error({"--follow", "r", "--follow-timeout", "inf"}),
            "argument --follow-timeout: expected seconds (> 0): 'inf'");
  // Full spellings only: the reference's abbreviations keep their meaning.
  EXPECT_EQ(Error({"--fol", "r"}), "unrecognized arguments: --fol");
  EXPECT_EQ(Parse({"--f", "full", "x"}).view.format, NameFormat::kFull);
}

TEST(CliArgs, StragglersNeedAMergeOfPartFiles) {
  ViewerOptions a =
      Parse({"-m", "t", "--merge", "--stragglers", "a.part_0.hatchet", "b.part_0.hatchet"});
  EXPECT_TRUE(a.output.stragglers);
  EXPECT_EQ(a.output.stragglers_pct, 5.0);
  EXPECT_EQ(
      Parse({"-m", "t", "--merge", "--stragglers=12.5", "a.part_0.hatchet", "b.part_0.hatchet"})
          .output.stragglers_pct,
      12.5);
  // Its value is only ever attached: the next argument stays a FILE.
  EXPECT_EQ(Error({"-m", "t", "--merge", "--stragglers", "10", "b.part_0.hatchet"}),
            "--stragglers needs part files named NAME.part_<phase>.<format>: '10'");
  EXPECT_EQ(Error({"-m", "t", "--stragglers", "a.part_0.hatchet"}), "--stragglers needs --merge");
}

TEST(CliArgs, BaselinesAddUp) {
  ViewerOptions a = Parse({"-m", "t", "--baseline", "b1", "--baseline=b2", "n1", "n2"});
  EXPECT_EQ(a.input.baselines, (std::vector<std::string>{"b1", "b2"}));
  EXPECT_EQ(a.input.files, (std::vector<std::string>{"n1", "n2"}));
  EXPECT_TRUE(
      Parse({"-m", "t", "--baseline", "b", "--fail-above", "5", "n"}).output.has_fail_above);
  EXPECT_EQ(Error({"-m", "t", "n1", "n2"}), "Must specify exactly one file to read (got 2)");
  EXPECT_EQ(Error({"-m", "t", "--baseline", "b", "--merge", "n"}),
            "--baseline cannot be used with --merge");
}

}  // namespace
}  // namespace proton::viewer
