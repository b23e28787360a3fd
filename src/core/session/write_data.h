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

// The run's end marker beside its part files (formats.md §5): `part_path` without its
// ".part_<phase>.<format>" ending, then ".done" ("out/run.rank3.part_7.hatchet" ->
// "out/run.rank3.done"); "" when `part_path` is no part file's path.
std::string EndMarkerPath(std::string_view part_path);
// The marker's content: one line of JSON, {"parts":N}, N = the part files the session wrote.
std::string EndMarkerText(int parts_written);

}  // namespace proton
