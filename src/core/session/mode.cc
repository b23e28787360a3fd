// Mode strings; see mode.h. The wording of the errors is ours (§1.10).
#include "core/session/mode.h"

#include <charconv>
#include <vector>

#include "core/session/format_names.h"

namespace proton {
namespace {

Error ModeError(std::string message) {
  return Status::Error(std::move(message), ErrorKind::kRuntime);
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

}  // namespace

Result<ModeSpec> ParseMode(std::string_view mode) {
  ModeSpec spec;
  if (mode.empty()) return spec;
  std::vector<std::string_view> fields = Split(mode, ':');
  spec.name = std::string(fields[0]);
  std::string_view allowed_key;
  if (spec.name == "pcsampling") {
    allowed_key = "interval";
  } else if (spec.name == "periodic_flushing") {
    allowed_key = "format";
  } else {
    return ModeError("Unknown mode: " + spec.name + " (accepted: pcsampling, periodic_flushing)");
  }
  for (size_t i = 1; i < fields.size(); ++i) {
    std::string_view field = fields[i];
    size_t eq = field.find('=');
    std::string key(field.substr(0, eq));
    if (eq == std::string_view::npos || key != allowed_key) {
      return ModeError("Unknown option for mode " + spec.name + ": " + std::string(field) +
                       " (accepted: " + std::string(allowed_key) + "=<value>)");
    }
    std::string value(field.substr(eq + 1));
    if (key == "format" && FindFormatName(value) == nullptr) {
      return ModeError("Unknown format for periodic_flushing: " + value +
                       " (accepted: " + std::string(kFormatNameList) + ")");
    }
    if (key == "interval") {
      long long v = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || p != value.data() + value.size() || v <= 0) {
        return ModeError("Invalid pcsampling interval: " + value +
                         " (accepted: a positive integer)");
      }
    }
    spec.options[key] = value;
  }
  return spec;
}

}  // namespace proton
