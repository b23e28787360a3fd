// See argparse.h. The names of the steps are CPython 3.11 argparse's: _parse_optional,
// _get_option_tuples, consume_optional, take_action.
#include "util/argparse.h"

#include <cstddef>
#include <optional>
#include <utility>

#include "util/check.h"
#include "util/py_unicode.h"

namespace proton {
namespace {

// One argument as classified by _parse_optional. `option` is null for an unknown option.
struct Classified {
  enum class Kind { kPositional, kOption, kDoubleDash };
  Kind kind = Kind::kPositional;
  const ArgOption* option = nullptr;
  std::string_view option_string = {};
  // The value attached to the option string. A flag and a plain string: an optional inside a
  // Result trips g++ 12's -Wmaybe-uninitialized.
  bool has_explicit = false;
  std::string explicit_arg = {};
};

Classified OptionMatch(const ArgOption& option, std::string_view option_string) {
  return {Classified::Kind::kOption, &option, option_string};
}

Classified OptionMatch(const ArgOption& option, std::string_view option_string,
                       std::string_view explicit_arg) {
  return {Classified::Kind::kOption, &option, option_string, true, std::string(explicit_arg)};
}

// An option string exactly as registered (the exact-only ones too).
std::optional<Classified> FindExact(const ArgParser& parser, std::string_view text) {
  for (const ArgOption& option : parser.options) {
    for (std::string_view option_string : option.strings) {
      if (option_string == text) return OptionMatch(option, option_string);
    }
  }
  return std::nullopt;
}

// _get_option_tuples: the options `arg` could abbreviate. "--pre[=x]" matches long strings
// starting with "--pre"; "-xrest" matches "-x" (with "rest" attached) and any string starting
// with "-xrest".
std::vector<Classified> GetOptionTuples(const ArgParser& parser, std::string_view arg) {
  std::vector<Classified> result;
  const bool long_form = arg.size() >= 2 && arg[1] == '-';
  const size_t eq = long_form ? arg.find('=') : std::string_view::npos;
  const std::string_view prefix = arg.substr(0, eq);
  for (const ArgOption& option : parser.options) {
    if (option.exact_only) continue;
    for (std::string_view option_string : option.strings) {
      if (!long_form && option_string == arg.substr(0, 2)) {
        result.push_back(OptionMatch(option, option_string, arg.substr(2)));
      } else if (option_string.starts_with(prefix)) {
        result.push_back(eq == std::string_view::npos
                             ? OptionMatch(option, option_string)
                             : OptionMatch(option, option_string, arg.substr(eq + 1)));
      }
    }
  }
  return result;
}

Error AmbiguousOption(std::string_view arg, const std::vector<Classified>& matches) {
  std::string message = "ambiguous option: " + std::string(arg) + " could match ";
  for (size_t i = 0; i < matches.size(); ++i) {
    if (i > 0) message += ", ";
    message += matches[i].option_string;
  }
  return Status::UsageError(std::move(message));
}

// _parse_optional, for an argument other than "--": an option (known or not) or a positional;
// an ambiguous prefix is an error.
Result<Classified> ParseOptional(const ArgParser& parser, std::string_view arg) {
  if (arg.empty() || arg[0] != '-') return Classified{};
  if (std::optional<Classified> exact = FindExact(parser, arg)) return *std::move(exact);
  if (arg.size() == 1) return Classified{};  // "-": standard input, a positional
  if (size_t eq = arg.find('='); eq != std::string_view::npos) {
    if (std::optional<Classified> exact = FindExact(parser, arg.substr(0, eq))) {
      return OptionMatch(*exact->option, exact->option_string, arg.substr(eq + 1));
    }
  }
  std::vector<Classified> tuples = GetOptionTuples(parser, arg);
  if (tuples.size() > 1) return AmbiguousOption(arg, tuples);
  if (tuples.size() == 1) return std::move(tuples[0]);
  if (LooksLikeNegativeNumber(arg)) return Classified{};
  if (arg.find(' ') != std::string_view::npos) return Classified{};
  return Classified{Classified::Kind::kOption, nullptr, arg};
}

Error IgnoredExplicitArgument(const ArgParser& parser, const ArgOption& option,
                              const std::string& explicit_arg) {
  return ArgumentError(option, "ignored explicit argument " + parser.quote(explicit_arg));
}

Status CheckChoice(const ArgParser& parser, const ArgOption& option, const std::string& value) {
  if (option.choices.empty()) return Status();
  for (std::string_view choice : option.choices) {
    if (choice == value) return Status();
  }
  std::string choices(option.choices_text);
  if (choices.empty()) {
    for (std::string_view choice : option.choices) {
      if (!choices.empty()) choices += ", ";
      choices += parser.quote(choice);
    }
  }
  return ArgumentError(option,
                       "invalid choice: " + parser.quote(value) + " (choose from " + choices + ")");
}

// One option to take, with its value (none for a flag or an absent optional value).
struct PendingAction {
  const ArgOption* option;
  bool has_value = false;
  std::string value = {};
};

// The left-to-right scan. Arguments are classified on first use, so that with kRemainder
// nothing from the first positional on is looked at; with kCollect they are all classified
// before anything is consumed, as argparse does, so an ambiguous prefix anywhere wins.
class Scanner {
 public:
  Scanner(const ArgParser& parser, const std::vector<std::string>& args, const TakeOption& take)
      : parser_(parser), args_(args), take_(take), classified_(args.size()) {}

  Result<ArgScan> Run() {
    if (parser_.positionals == Positionals::kCollect) {
      for (size_t i = 0; i < args_.size() && i <= double_dash_; ++i) {
        PROTON_RETURN_IF_ERROR(Classify(i).status());
      }
    }
    size_t i = 0;
    while (i < args_.size()) {
      PROTON_ASSIGN_OR_RETURN(const Classified* arg, Classify(i));
      if (arg->kind == Classified::Kind::kOption) {
        PROTON_ASSIGN_OR_RETURN(i, ConsumeOptional(i, *arg));
        if (scan_.ended_by != nullptr) return std::move(scan_);
        continue;
      }
      // A positional, or the first "--", which ends the options and is itself no argument.
      const size_t first = arg->kind == Classified::Kind::kDoubleDash ? i + 1 : i;
      if (parser_.positionals == Positionals::kRemainder) {
        scan_.positionals.assign(args_.begin() + static_cast<std::ptrdiff_t>(first), args_.end());
        break;
      }
      if (first == i) scan_.positionals.push_back(args_[i]);
      i += 1;
    }
    if (!unknown_.empty()) return UnrecognizedArguments();
    return std::move(scan_);
  }

 private:
  // Every argument after the first "--" is a positional.
  Result<const Classified*> Classify(size_t i) {
    if (!classified_[i]) {
      if (i > double_dash_) {
        classified_[i] = Classified{};
      } else if (args_[i] == "--") {
        double_dash_ = i;
        classified_[i] = Classified{Classified::Kind::kDoubleDash};
      } else {
        PROTON_ASSIGN_OR_RETURN(classified_[i], ParseOptional(parser_, args_[i]));
      }
    }
    return &*classified_[i];
  }

  Result<bool> IsPositional(size_t i) {
    if (i >= args_.size()) return false;
    PROTON_ASSIGN_OR_RETURN(const Classified* arg, Classify(i));
    return arg->kind == Classified::Kind::kPositional;
  }

  Result<size_t> ConsumeOptional(size_t index, const Classified& arg);
  Result<Classified> NextInCluster(const Classified& flag) const;
  Status TakeActions(const std::vector<PendingAction>& actions);

  Error UnrecognizedArguments() const {
    std::string message = "unrecognized arguments:";
    for (const std::string& unknown : unknown_) message += " " + unknown;
    return Status::UsageError(std::move(message));
  }

  const ArgParser& parser_;
  const std::vector<std::string>& args_;
  const TakeOption& take_;
  std::vector<std::optional<Classified>> classified_;
  size_t double_dash_ = std::string::npos;  // index of the first "--", once seen
  std::vector<std::string> unknown_;        // unknown options, in order
  ArgScan scan_;
};

// A single-dash flag with text attached ("-lmX"): the text's first character names the next
// option of the cluster, and the rest is attached to that one.
Result<Classified> Scanner::NextInCluster(const Classified& flag) const {
  const std::string& attached = flag.explicit_arg;
  const std::string next_string = {'-', attached[0]};
  std::optional<Classified> next = FindExact(parser_, next_string);
  if (!next) return IgnoredExplicitArgument(parser_, *flag.option, attached);
  if (attached.size() == 1) return *std::move(next);
  return OptionMatch(*next->option, next->option_string, std::string_view(attached).substr(1));
}

// consume_optional for the option at args_[index]; returns the index after what it used.
// The actions of a cluster are collected first and taken afterwards, as argparse does: an
// error later in a cluster ("-hx") wins over an earlier flag in it.
Result<size_t> Scanner::ConsumeOptional(size_t index, const Classified& arg) {
  if (arg.option == nullptr) {
    unknown_.push_back(args_[index]);
    return index + 1;
  }
  std::vector<PendingAction> actions;
  size_t stop = index + 1;
  Classified current = arg;
  while (true) {
    const ArgOption& option = *current.option;
    if (option.value == ArgValue::kAttachedOnly ||
        (current.has_explicit && option.value == ArgValue::kOne)) {
      actions.push_back({&option, current.has_explicit, std::move(current.explicit_arg)});
      break;
    }
    if (current.has_explicit) {  // a flag with a value
      if (current.option_string[1] == '-' || current.explicit_arg.empty()) {
        return IgnoredExplicitArgument(parser_, option, current.explicit_arg);
      }
      actions.push_back({&option});
      PROTON_ASSIGN_OR_RETURN(current, NextInCluster(current));
      continue;
    }
    if (option.value == ArgValue::kOne) {
      PROTON_ASSIGN_OR_RETURN(bool has_value, IsPositional(index + 1));
      if (!has_value) return ArgumentError(option, "expected one argument");
      actions.push_back({&option, true, args_[index + 1]});
      stop = index + 2;
    } else {
      actions.push_back({&option});
    }
    break;
  }
  PROTON_RETURN_IF_ERROR(TakeActions(actions));
  return stop;
}

// take_action for each, in order, up to an option that ends the scan.
Status Scanner::TakeActions(const std::vector<PendingAction>& actions) {
  for (const PendingAction& action : actions) {
    if (action.has_value) {
      PROTON_RETURN_IF_ERROR(CheckChoice(parser_, *action.option, action.value));
    }
    PROTON_RETURN_IF_ERROR(take_(*action.option, action.has_value ? &action.value : nullptr));
    if (action.option->ends_scan) {
      scan_.ended_by = action.option;
      break;
    }
  }
  return Status();
}

}  // namespace

Result<ArgScan> ParseArgs(const ArgParser& parser, const std::vector<std::string>& args,
                          const TakeOption& take) {
  return Scanner(parser, args, take).Run();
}

const ArgOption& OptionWithId(const ArgParser& parser, int id) {
  for (const ArgOption& option : parser.options) {
    if (option.id == id) return option;
  }
  PROTON_CHECK(false) << "no option with id " << id;
  return parser.options.front();
}

std::string ArgumentName(const ArgOption& option) {
  std::string name;
  for (std::string_view option_string : option.strings) {
    if (!name.empty()) name += '/';
    name += option_string;
  }
  return name;
}

Error ArgumentError(const ArgOption& option, std::string_view message) {
  return Status::UsageError("argument " + ArgumentName(option) + ": " + std::string(message));
}

std::string PythonRepr(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : text) {
    if (c == '\\' || c == static_cast<unsigned char>(quote)) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += quote;
  return out;
}

std::string QuoteVerbatim(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  out += text;
  out += '\'';
  return out;
}

bool LooksLikeNegativeNumber(std::string_view arg) {
  if (arg.empty() || arg[0] != '-') return false;
  std::string_view body = arg.substr(1);
  if (!body.empty() && body.back() == '\n') body.remove_suffix(1);
  const size_t dot = body.find('.');
  if (dot == std::string_view::npos) return IsPyDecimalDigits(body);
  const std::string_view whole = body.substr(0, dot);
  return (whole.empty() || IsPyDecimalDigits(whole)) && IsPyDecimalDigits(body.substr(dot + 1));
}

}  // namespace proton
