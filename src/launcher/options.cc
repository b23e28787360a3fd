// See options.h. One table describes the options; the loop walks tokens left to right the way
// argparse does, so the first error or -h/-V encountered wins.
#include "launcher/options.h"

#include <array>
#include <cstddef>
#include <string_view>

namespace proton::launcher {

namespace {

enum class Opt { kHelp, kVersion, kName, kBackend, kContext, kMode, kData, kHook };

struct OptionSpec {
  Opt id;
  std::string_view short_name;  // "-n"
  std::string_view long_name;   // "--name"
  bool takes_value;
  std::vector<std::string_view> choices;  // empty: any value
  std::string_view choices_text;          // "'shadow', 'python'" as argparse lists them
};

const std::vector<OptionSpec>& Specs() {
  static const std::vector<OptionSpec> kSpecs = {
      {Opt::kHelp, "-h", "--help", false, {}, ""},
      {Opt::kName, "-n", "--name", true, {}, ""},
      {Opt::kBackend, "-b", "--backend", true, {"cupti"}, "'cupti'"},
      {Opt::kContext, "-c", "--context", true, {"shadow", "python"}, "'shadow', 'python'"},
      {Opt::kMode, "-m", "--mode", true, {}, ""},
      {Opt::kData, "-d", "--data", true, {"tree", "trace"}, "'tree', 'trace'"},
      // The reference declares choices=[None, "triton"] with type=str: "None" never matches.
      {Opt::kHook, "-k", "--hook", true, {"triton"}, "None, 'triton'"},
      {Opt::kVersion, "-V", "--version", false, {}, ""},
  };
  return kSpecs;
}

bool IsNegativeNumber(std::string_view token) {
  // argparse's '^-\d+$|^-\d*\.\d+$': such tokens are values, not options.
  if (token.size() < 2 || token[0] != '-') return false;
  std::string_view rest = token.substr(1);
  size_t dot = rest.find('.');
  auto all_digits = [](std::string_view s) {
    for (char c : s) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  };
  if (dot == std::string_view::npos) return all_digits(rest);
  return all_digits(rest.substr(0, dot)) && dot + 1 < rest.size() &&
         all_digits(rest.substr(dot + 1));
}

// argparse treats "-" and negative numbers as positionals; anything else starting with '-'
// is an option string.
bool LooksLikeOption(std::string_view token) {
  return token.size() > 1 && token[0] == '-' && !IsNegativeNumber(token);
}

std::string ArgName(const OptionSpec& spec) {
  return std::string("argument ") + std::string(spec.short_name) + "/" +
         std::string(spec.long_name);
}

struct Match {
  const OptionSpec* spec = nullptr;
  // A plain string and a flag: std::optional<std::string> inside Result trips g++ 12's
  // -Wmaybe-uninitialized.
  bool has_explicit = false;
  std::string explicit_value;
};

// Resolves one option token. Returns nullopt-spec for an unknown option; a usage error for an
// ambiguous long prefix.
Result<Match> MatchOption(const std::string& token) {
  Match match;
  if (token.rfind("--", 0) == 0) {
    std::string name = token;
    size_t eq = token.find('=');
    if (eq != std::string::npos) {
      name = token.substr(0, eq);
      match.has_explicit = true;
      match.explicit_value = token.substr(eq + 1);
    }
    std::vector<const OptionSpec*> prefix_matches;
    for (const OptionSpec& spec : Specs()) {
      if (spec.long_name == name) {
        match.spec = &spec;
        return match;
      }
      if (spec.long_name.rfind(name, 0) == 0) prefix_matches.push_back(&spec);
    }
    if (prefix_matches.size() == 1) {
      match.spec = prefix_matches[0];
      return match;
    }
    if (prefix_matches.size() > 1) {
      std::string message = "ambiguous option: " + name + " could match ";
      for (size_t i = 0; i < prefix_matches.size(); ++i) {
        if (i > 0) message += ", ";
        message += std::string(prefix_matches[i]->long_name);
      }
      return Status::UsageError(message);
    }
    return Match{};  // unknown
  }
  for (const OptionSpec& spec : Specs()) {
    if (token.compare(0, 2, spec.short_name) != 0) continue;
    match.spec = &spec;
    if (token.size() > 2) {
      // "-n=x" gives "x" (argparse splits at '=' when the left part is an option), "-nx" "x".
      match.has_explicit = true;
      match.explicit_value = token[2] == '=' ? token.substr(3) : token.substr(2);
    }
    return match;
  }
  return match;  // unknown
}

Status CheckChoice(const OptionSpec& spec, const std::string& value) {
  if (spec.choices.empty()) return Status();
  for (std::string_view choice : spec.choices) {
    if (choice == value) return Status();
  }
  return Status::UsageError(ArgName(spec) + ": invalid choice: " + PythonRepr(value) +
                            " (choose from " + std::string(spec.choices_text) + ")");
}

void Store(LaunchOptions& options, Opt id, std::string value) {
  switch (id) {
    case Opt::kName: options.name = std::move(value); break;
    case Opt::kBackend: options.backend = std::move(value); break;
    case Opt::kContext: options.context = std::move(value); break;
    case Opt::kMode: options.mode = std::move(value); break;
    case Opt::kData: options.data = std::move(value); break;
    case Opt::kHook: options.hook = std::move(value); break;
    case Opt::kHelp:
    case Opt::kVersion: break;
  }
}

}  // namespace

std::string PythonRepr(const std::string& text) {
  const bool has_single = text.find('\'') != std::string::npos;
  const bool has_double = text.find('"') != std::string::npos;
  const char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == static_cast<unsigned char>(quote)) {
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

Result<ParsedCommand> ParseCommandLine(const std::vector<std::string>& args) {
  ParsedCommand parsed;
  std::vector<std::string> unrecognized;
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token == "--") {
      ++i;  // a leading "--" ends the options and is dropped
      break;
    }
    if (!LooksLikeOption(token)) break;
    PROTON_ASSIGN_OR_RETURN(Match match, MatchOption(token));
    if (match.spec == nullptr) {
      unrecognized.push_back(token);
      continue;
    }
    const OptionSpec& spec = *match.spec;
    if (!spec.takes_value) {
      if (match.has_explicit && token.rfind("--", 0) == 0) {
        return Status::UsageError(ArgName(spec) + ": ignored explicit argument " +
                                  PythonRepr(match.explicit_value));
      }
      // -h and -V act at once, as argparse's help and version actions do.
      parsed.action =
          spec.id == Opt::kHelp ? ParsedCommand::Action::kHelp : ParsedCommand::Action::kVersion;
      return parsed;
    }
    std::string value;
    if (match.has_explicit) {
      value = match.explicit_value;
    } else if (i + 1 < args.size() && !LooksLikeOption(args[i + 1])) {
      value = args[++i];
    } else {
      return Status::UsageError(ArgName(spec) + ": expected one argument");
    }
    PROTON_RETURN_IF_ERROR(CheckChoice(spec, value));
    Store(parsed.options, spec.id, std::move(value));
  }
  parsed.options.target.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  if (!unrecognized.empty()) {
    std::string message = "unrecognized arguments:";
    for (const std::string& token : unrecognized) message += " " + token;
    return Status::UsageError(message);
  }
  if (parsed.options.target.empty()) {
    return Status::UsageError("missing target: give a Python script, pytest, or an executable");
  }
  return parsed;
}

}  // namespace proton::launcher
