// See options.h. The option table is the reference's add_argument calls; the engine scans up
// to the first positional, which starts the target.
#include "launcher/options.h"

#include <utility>

#include "core/session/format_names.h"
#include "util/argparse.h"

namespace proton::launcher {

namespace {

enum class Opt { kHelp, kVersion, kName, kBackend, kContext, kMode, kData, kHook, kFormat };

constexpr int Id(Opt opt) { return static_cast<int>(opt); }

// -f's choices: every output format (core/session/format_names.h), in its order.
std::vector<std::string_view> FormatChoices() {
  std::vector<std::string_view> names;
  for (const FormatName& format : kFormatNames) names.push_back(format.name);
  return names;
}

const ArgParser& Parser() {
  static const ArgParser kParser = {
      {
          {.id = Id(Opt::kHelp), .strings = {"-h", "--help"}, .ends_scan = true},
          {Id(Opt::kName), {"-n", "--name"}, ArgValue::kOne},
          {Id(Opt::kBackend), {"-b", "--backend"}, ArgValue::kOne, {"cupti"}},
          {Id(Opt::kContext), {"-c", "--context"}, ArgValue::kOne, {"shadow", "python"}},
          {Id(Opt::kMode), {"-m", "--mode"}, ArgValue::kOne},
          {Id(Opt::kData), {"-d", "--data"}, ArgValue::kOne, {"tree", "trace"}},
          // The reference declares choices=[None, "triton"] with type=str: "None" never matches.
          {Id(Opt::kHook), {"-k", "--hook"}, ArgValue::kOne, {"triton"}, "None, 'triton'"},
          // Ours (the reference writes the data kind's default format); no reference option
          // starts with --f, so its prefixes stay unambiguous.
          {Id(Opt::kFormat), {"-f", "--format"}, ArgValue::kOne, FormatChoices()},
          {.id = Id(Opt::kVersion), .strings = {"-V", "--version"}, .ends_scan = true},
      },
      PythonRepr,
      Positionals::kRemainder,
  };
  return kParser;
}

void Store(LaunchOptions& options, Opt id, std::string value) {
  switch (id) {
    case Opt::kName: options.name = std::move(value); break;
    case Opt::kBackend: options.backend = std::move(value); break;
    case Opt::kContext: options.context = std::move(value); break;
    case Opt::kMode: options.mode = std::move(value); break;
    case Opt::kData: options.data = std::move(value); break;
    case Opt::kHook: options.hook = std::move(value); break;
    case Opt::kFormat: options.format = std::move(value); break;
    case Opt::kHelp:
    case Opt::kVersion: break;
  }
}

}  // namespace

Result<ParsedCommand> ParseCommandLine(const std::vector<std::string>& args) {
  ParsedCommand parsed;
  auto take = [&](const ArgOption& option, const std::string* value) -> Status {
    if (value != nullptr) Store(parsed.options, static_cast<Opt>(option.id), *value);
    return Status();
  };
  PROTON_ASSIGN_OR_RETURN(ArgScan scan, ParseArgs(Parser(), args, take));
  if (scan.ended_by != nullptr) {
    // -h and -V act at once, as argparse's help and version actions do.
    parsed.action = scan.ended_by->id == Id(Opt::kHelp) ? ParsedCommand::Action::kHelp
                                                        : ParsedCommand::Action::kVersion;
    return parsed;
  }
  parsed.options.target = std::move(scan.positionals);
  if (parsed.options.target.empty()) {
    return Status::UsageError("missing target: give a Python script, pytest, or an executable");
  }
  return parsed;
}

}  // namespace proton::launcher
