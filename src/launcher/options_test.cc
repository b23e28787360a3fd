// Tests of the command-line parser (profiler.md §2.1, §2.2; checks N1-N4).
#include "launcher/options.h"

#include <gtest/gtest.h>

#include "launcher/help_text.h"
#include "util/argparse.h"  // PythonRepr, how the launcher quotes values in messages
#include "util/test_support.h"

namespace proton::launcher {
namespace {

ParsedCommand ParseOk(const std::vector<std::string>& args) {
  return test::ExpectValue(ParseCommandLine(args));
}

std::string ParseError(const std::vector<std::string>& args) {
  return test::ExpectUsageError(ParseCommandLine(args));
}

TEST(Options, Defaults) {
  LaunchOptions o = ParseOk({"s.py"}).options;
  EXPECT_FALSE(o.name.has_value());
  EXPECT_EQ(o.context, "shadow");
  EXPECT_EQ(o.data, "tree");
  EXPECT_FALSE(o.backend.has_value());
  EXPECT_FALSE(o.mode.has_value());
  EXPECT_FALSE(o.hook.has_value());
  EXPECT_EQ(o.target, std::vector<std::string>{"s.py"});
}

TEST(Options, EveryFormOfEveryOption) {
  struct Case {
    std::vector<std::string> args;
    std::string name, context, data, backend, mode, hook;
  };
  const std::vector<Case> cases = {
      {{"-n", "x", "-c", "python", "-d", "trace", "-b", "cupti", "-m", "pcsampling", "-k", "triton",
        "t"},
       "x",
       "python",
       "trace",
       "cupti",
       "pcsampling",
       "triton"},
      {{"--name", "x", "--context", "python", "--data", "trace", "--backend", "cupti", "--mode",
        "m", "--hook", "triton", "t"},
       "x",
       "python",
       "trace",
       "cupti",
       "m",
       "triton"},
      {{"--name=x", "--context=python", "--data=trace", "--backend=cupti", "--mode=m",
        "--hook=triton", "t"},
       "x",
       "python",
       "trace",
       "cupti",
       "m",
       "triton"},
      {{"-nx", "-cpython", "-dtrace", "-bcupti", "-mm", "-ktriton", "t"},
       "x",
       "python",
       "trace",
       "cupti",
       "m",
       "triton"},
      {{"-n=x", "-c=python", "t"}, "x", "python", "tree", "", "", ""},
      {{"--na", "x", "--con", "python", "--da", "trace", "--b", "cupti", "--mo", "m", "--ho",
        "triton", "t"},
       "x",
       "python",
       "trace",
       "cupti",
       "m",
       "triton"},
  };
  for (const Case& c : cases) {
    LaunchOptions o = ParseOk(c.args).options;
    EXPECT_EQ(o.name.value_or(""), c.name);
    EXPECT_EQ(o.context, c.context);
    EXPECT_EQ(o.data, c.data);
    EXPECT_EQ(o.backend.value_or(""), c.backend);
    EXPECT_EQ(o.mode.value_or(""), c.mode);
    EXPECT_EQ(o.hook.value_or(""), c.hook);
    EXPECT_EQ(o.target, std::vector<std::string>{"t"});
  }
}

TEST(Options, LastValueWinsAndSpecialValues) {
  EXPECT_EQ(*ParseOk({"-n", "a", "-n", "b", "t"}).options.name, "b");
  EXPECT_EQ(*ParseOk({"-n", "-", "t"}).options.name, "-");
  EXPECT_EQ(*ParseOk({"-n", "", "t"}).options.name, "");
  EXPECT_EQ(*ParseOk({"--name=", "t"}).options.name, "");
  EXPECT_EQ(*ParseOk({"-n", "-5", "t"}).options.name, "-5");  // negative numbers are values
}

TEST(Options, BadChoices) {
  EXPECT_EQ(ParseError({"-c", "gpu", "t"}),
            "argument -c/--context: invalid choice: 'gpu' (choose from 'shadow', 'python')");
  EXPECT_EQ(ParseError({"-d", "flat", "t"}),
            "argument -d/--data: invalid choice: 'flat' (choose from 'tree', 'trace')");
  EXPECT_EQ(ParseError({"-k", "None", "t"}),
            "argument -k/--hook: invalid choice: 'None' (choose from None, 'triton')");
  EXPECT_EQ(ParseError({"-k", "launch", "t"}),
            "argument -k/--hook: invalid choice: 'launch' (choose from None, 'triton')");
  EXPECT_EQ(ParseError({"--backend=roc", "t"}),
            "argument -b/--backend: invalid choice: 'roc' (choose from 'cupti')");
  EXPECT_EQ(ParseError({"-c", "Python", "t"}).rfind("argument -c/--context: invalid choice:", 0),
            0u);  // choices are case-sensitive, as in argparse
}

// -f/--format is ours (profiler.md §2.1): the format names as choices, parsed like the
// reference's options (no reference option starts with --f, so its prefixes are unambiguous).
TEST(Options, Format) {
  EXPECT_FALSE(ParseOk({"t"}).options.format.has_value());
  EXPECT_EQ(*ParseOk({"-f", "perfetto_trace", "t"}).options.format, "perfetto_trace");
  EXPECT_EQ(*ParseOk({"-fhatchet_msgpack", "t"}).options.format, "hatchet_msgpack");
  EXPECT_EQ(*ParseOk({"--format=chrome_trace", "t"}).options.format, "chrome_trace");
  EXPECT_EQ(ParseError({"-f", "json", "t"}),
            "argument -f/--format: invalid choice: 'json' (choose from 'hatchet', "
            "'hatchet_msgpack', 'chrome_trace', 'perfetto_trace')");
  EXPECT_EQ(*ParseOk({"--form", "hatchet", "t"}).options.format, "hatchet");
}

TEST(Options, MissingValuesAndUnknownOptions) {
  EXPECT_EQ(ParseError({"-n"}), "argument -n/--name: expected one argument");
  EXPECT_EQ(ParseError({"-n", "-c", "python", "t"}), "argument -n/--name: expected one argument");
  EXPECT_EQ(ParseError({"--name", "--", "t"}), "argument -n/--name: expected one argument");
  EXPECT_EQ(ParseError({"--bogus", "t"}), "unrecognized arguments: --bogus");
  EXPECT_EQ(ParseError({"-x", "t"}), "unrecognized arguments: -x");
  EXPECT_EQ(ParseError({"--h", "t"}), "ambiguous option: --h could match --help, --hook");
  EXPECT_EQ(ParseError({"--help=1"}), "argument -h/--help: ignored explicit argument '1'");
}

TEST(Options, NoTarget) {
  const std::string expected = "missing target: give a Python script, pytest, or an executable";
  EXPECT_EQ(ParseError({}), expected);
  EXPECT_EQ(ParseError({"-n", "x"}), expected);
  EXPECT_EQ(ParseError({"--"}), expected);
}

TEST(Options, HelpAndVersionActAtOnce) {
  EXPECT_EQ(ParseOk({"-h"}).action, ParsedCommand::Action::kHelp);
  EXPECT_EQ(ParseOk({"--help"}).action, ParsedCommand::Action::kHelp);
  EXPECT_EQ(ParseOk({"--he"}).action, ParsedCommand::Action::kHelp);
  EXPECT_EQ(ParseOk({"-n", "x", "-h", "-c", "gpu"}).action, ParsedCommand::Action::kHelp);
  EXPECT_EQ(ParseOk({"-V"}).action, ParsedCommand::Action::kVersion);
  EXPECT_EQ(ParseOk({"--version"}).action, ParsedCommand::Action::kVersion);
  // After the target, -h belongs to the target.
  ParsedCommand run = ParseOk({"s.py", "-h"});
  EXPECT_EQ(run.action, ParsedCommand::Action::kRun);
  EXPECT_EQ(run.options.target, (std::vector<std::string>{"s.py", "-h"}));
}

TEST(Options, PassThrough) {
  LaunchOptions o = ParseOk({"-n", "foo", "s.py", "a", "-n", "b"}).options;
  EXPECT_EQ(*o.name, "foo");
  EXPECT_EQ(o.target, (std::vector<std::string>{"s.py", "a", "-n", "b"}));
  EXPECT_EQ(ParseOk({"--", "s.py"}).options.target, std::vector<std::string>{"s.py"});
  EXPECT_EQ(ParseOk({"-n", "x", "--", "-weird", "--"}).options.target,
            (std::vector<std::string>{"-weird", "--"}));
  EXPECT_EQ(ParseOk({"s.py", "--"}).options.target, (std::vector<std::string>{"s.py", "--"}));
}

TEST(Options, PythonRepr) {
  EXPECT_EQ(PythonRepr("a"), "'a'");
  EXPECT_EQ(PythonRepr("it's"), "\"it's\"");
  EXPECT_EQ(PythonRepr("a'\"b"), "'a\\'\"b'");
  EXPECT_EQ(PythonRepr("a\\b\n"), "'a\\\\b\\n'");
}

TEST(HelpText, MatchesTheSpec) {
  const std::string help(HelpText());
  EXPECT_EQ(
      help.rfind("usage: \n    proton [options] script.py [script_args] [script_options]\n", 0),
      0u);
  EXPECT_NE(help.find("\n    proton [options] executable [args]\n"), std::string::npos);
  EXPECT_NE(help.find("\n    python -m proton [options] script.py [script_args] "
                      "[script_options]\n\nThe proton command utility for profiling scripts "
                      "and pytest tests.\n"),
            std::string::npos);
  for (const char* line :
       {"  -h, --help            show this help message and exit\n",
        "  -n NAME, --name NAME  Name of the profiling session\n",
        "  -b {cupti}, --backend {cupti}\n                        Profiling backend\n",
        // One help line, split for the line length.
        // NOLINTNEXTLINE(bugprone-suspicious-missing-comma)
        "  -c {shadow,python}, --context {shadow,python}\n                        Profiling "
        "context\n",
        "  -m MODE, --mode MODE  Profiling mode\n",
        "  -d {tree,trace}, --data {tree,trace}\n                        Profiling data\n",
        "  -k {None,triton}, --hook {None,triton}\n                        Profiling hook\n",
        "  -f FORMAT, --format FORMAT\n                        Output format: hatchet, "
        "hatchet_msgpack (-d tree),\n"}) {
    EXPECT_NE(help.find(line), std::string::npos) << line;
  }
  EXPECT_EQ(help.rfind(UsageText(), 0), 0u);
}

}  // namespace
}  // namespace proton::launcher
