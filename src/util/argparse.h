// The one argument-parsing engine of the commands (`proton`, `proton-viewer`). Both reproduce
// a Python argparse program (the reference's), whose usage errors users and scripts see, so the
// engine follows CPython 3.11's argparse step by step: _parse_optional classifies each argument
// as an option or a positional (unique long prefixes, `--opt=value`, `-oVALUE`, the
// negative-number rule, `--`), consume_optional takes an option's value and splits flag
// clusters (`-lmVALUE`), and every message has argparse's wording. A command describes its
// options in a table and converts the values in a callback; its help text and its own checks
// stay with it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace proton {

enum class ArgValue {
  kNone,          // a flag (store_true, help, version)
  kOne,           // exactly one value: the next argument, or attached (`-mX`, `--metrics=X`)
  kAttachedOnly,  // an optional value given only after '=': the next argument is never taken
};

struct ArgOption {
  int id;                                 // the command's own identifier
  std::vector<std::string_view> strings;  // option strings as registered: {"-m", "--metrics"}
  ArgValue value = ArgValue::kNone;
  std::vector<std::string_view> choices = {};  // the accepted values; empty: any
  // "(choose from TEXT)" when it is not the quoted choices joined by ", " (a None choice).
  std::string_view choices_text = {};
  // Found only by its full spelling, never as a prefix: options beyond a reference keep the
  // reference's abbreviations unambiguous.
  bool exact_only = false;
  // Taken at once, and the scan stops there (argparse's help and version actions).
  bool ends_scan = false;
};

enum class Positionals {
  kCollect,    // every positional is collected; options may follow them
  kRemainder,  // the first positional and everything after it belong to a program to run
};

struct ArgParser {
  std::vector<ArgOption> options;  // registration order, which orders "could match" lists
  // How a value given by the user appears in messages: PythonRepr (argparse's %r) or
  // QuoteVerbatim.
  std::string (*quote)(std::string_view value);
  Positionals positionals = Positionals::kCollect;
};

struct ArgScan {
  const ArgOption* ended_by = nullptr;   // the ends_scan option that stopped the scan
  std::vector<std::string> positionals;  // in order; with kRemainder, the remainder verbatim
};

// Called for each option as argparse's take_action would be, in order: `value` is null for a
// flag or an absent optional value, and has passed the choices check. An error stops the scan.
using TakeOption = std::function<Status(const ArgOption& option, const std::string* value)>;

// Scans `args` (without the program name). Usage errors come back as ErrorKind::kUsage with
// argparse's message (without "prog: error: "); unknown options are reported after the scan
// ("unrecognized arguments: ..."), unless an ends_scan option was taken first.
Result<ArgScan> ParseArgs(const ArgParser& parser, const std::vector<std::string>& args,
                          const TakeOption& take);

// The option with this id; every id a command asks for is in its table.
const ArgOption& OptionWithId(const ArgParser& parser, int id);

// "-m/--metrics": the option strings joined by '/', as argparse names an argument.
std::string ArgumentName(const ArgOption& option);
// "argument -m/--metrics: MESSAGE".
Error ArgumentError(const ArgOption& option, std::string_view message);

// Python repr() of a str, as argparse's messages show values ("invalid choice: 'x'").
std::string PythonRepr(std::string_view text);
// 'text', the text inserted as it is.
std::string QuoteVerbatim(std::string_view text);

// argparse's _negative_number_matcher, '^-\d+$|^-\d*\.\d+$' (\d: any Unicode decimal digit;
// '$' also matches before a final '\n'): such arguments are positionals, not options.
bool LooksLikeNegativeNumber(std::string_view arg);

}  // namespace proton
