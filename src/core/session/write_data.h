// Serialising one data object in one of the output formats (format_names.h), to memory or to
// a file (profiler.md §4, formats.md §5-§7): shared by finalize, data.get and the phase writer.
#pragma once

#include <string>
#include <string_view>

#include "core/data/data.h"
#include "core/dump/node_metrics.h"
#include "util/status.h"

namespace proton {

// "" = the data kind's default; otherwise a name of format_names.h, in any case.
Result<std::string> ParseOutputFormat(std::string_view format);
// `format` resolved against the data kind ("" = hatchet for trees, chrome_trace for traces).
std::string FormatForData(const Data& data, const std::string& format);
// The error for a format the data kind cannot be written in, or OK.
Status CheckFormatForData(const Data& data, const std::string& format);

// Appends `data` in `format` to `out`, or streams it in chunks to `sink` when given. `pretty`
// false: compact JSON for .hatchet (part files written during the run, formats.md §5).
Status SerializeData(Data& data, const DeviceTable& devices, std::string_view format, bool pretty,
                     std::string& out, const ChunkSink* sink = nullptr);

// Writes `data` to `path` ("-" = standard output) atomically.
Status WriteDataFile(Data& data, const DeviceTable& devices, const std::string& path,
                     std::string_view format, bool pretty);

// "<name>.part_<phase>": the output name of one phase (formats.md §5).
std::string PartName(std::string_view name, int phase);

}  // namespace proton
