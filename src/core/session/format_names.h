// The output formats by name (each name is also the file suffix, formats.md §1) and the data
// kind each one writes: the one list that finalize's output_format, periodic_flushing:format=
// and the command's -f accept, and their error messages name. The writer of each format is in
// write_data.cc's table. Header only, so the launcher checks names without linking the core.
#pragma once

#include <string_view>

namespace proton {

struct FormatName {
  std::string_view name;
  bool trace;  // written from trace data (data="trace"), else from tree data
};

inline constexpr FormatName kFormatNames[] = {
    {"hatchet", false},
    {"hatchet_msgpack", false},
    {"chrome_trace", true},
    {"perfetto_trace", true},
};

// For messages: every name, in table order.
inline constexpr std::string_view kFormatNameList =
    "hatchet, hatchet_msgpack, chrome_trace, perfetto_trace";
// Which formats each data kind takes, for messages.
inline constexpr std::string_view kFormatKindsText =
    "chrome_trace and perfetto_trace are for data=\"trace\", hatchet and hatchet_msgpack for "
    "data=\"tree\"";

// The entry named exactly `name` (lower case), or nullptr.
inline const FormatName* FindFormatName(std::string_view name) {
  for (const FormatName& format : kFormatNames) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

// Whether `name` is a format of trace data.
inline bool IsTraceFormat(std::string_view name) {
  const FormatName* format = FindFormatName(name);
  return format != nullptr && format->trace;
}

}  // namespace proton
