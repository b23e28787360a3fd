// Writing data objects; see write_data.h.
#include "core/session/write_data.h"

#include <iterator>

#include "core/data/trace_data.h"
#include "core/data/tree_data.h"
#include "core/dump/chrome_trace_writer.h"
#include "core/dump/hatchet_writer.h"
#include "core/dump/msgpack_writer.h"
#include "core/dump/output_file.h"
#include "core/dump/perfetto_trace_writer.h"
#include "core/session/format_names.h"
#include "util/ascii.h"

namespace proton {
namespace {

Error RuntimeError(std::string message) {
  return Status::Error(std::move(message), ErrorKind::kRuntime);
}

// One output format: its name (also the file suffix) and its writer; the data kind it holds
// is format_names.h's. Each writer's downcast below is checked by the lookup that picked it.
struct OutputFormat {
  std::string_view name;
  void (*write)(Data& data, const DeviceTable& devices, bool pretty, std::string& out,
                const ChunkSink* sink);
};

void WriteTreeHatchet(Data& data, const DeviceTable& devices, bool pretty, std::string& out,
                      const ChunkSink* sink) {
  WriteOptions options;
  options.chunk_sink = sink;
  WriteHatchet(static_cast<TreeData&>(data), devices, options, out, pretty);
}

void WriteTreeMsgpack(Data& data, const DeviceTable& devices, bool /*pretty*/, std::string& out,
                      const ChunkSink* sink) {
  WriteOptions options;
  options.chunk_sink = sink;
  WriteHatchetMsgpack(static_cast<TreeData&>(data), devices, options, out);
}

void WriteTrace(Data& data, const DeviceTable& /*devices*/, bool /*pretty*/, std::string& out,
                const ChunkSink* sink) {
  WriteChromeTrace(static_cast<TraceData&>(data), out, sink);
}

void WritePerfetto(Data& data, const DeviceTable& /*devices*/, bool /*pretty*/, std::string& out,
                   const ChunkSink* sink) {
  WritePerfettoTrace(static_cast<TraceData&>(data), out, sink);
}

constexpr OutputFormat kOutputFormats[] = {
    {"hatchet", WriteTreeHatchet},
    {"hatchet_msgpack", WriteTreeMsgpack},
    {"chrome_trace", WriteTrace},
    {"perfetto_trace", WritePerfetto},
};
static_assert(std::size(kOutputFormats) == std::size(kFormatNames),
              "every name of format_names.h has a writer here");

const OutputFormat* FindOutputFormat(std::string_view name) {
  for (const OutputFormat& format : kOutputFormats) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

// The writer of `format` when it takes this data kind, else nullptr.
const OutputFormat* WriterFor(const Data& data, std::string_view format) {
  const OutputFormat* found = FindOutputFormat(format);
  if (found == nullptr || IsTraceFormat(found->name) != data.is_trace()) return nullptr;
  return found;
}

}  // namespace

Result<std::string> ParseOutputFormat(std::string_view format) {
  std::string f = AsciiLower(format);
  if (f.empty() || FindOutputFormat(f) != nullptr) return f;
  return RuntimeError("Unknown output format: " + std::string(format));
}

std::string FormatForData(const Data& data, const std::string& format) {
  if (!format.empty()) return format;
  return data.is_trace() ? "chrome_trace" : "hatchet";
}

Status CheckFormatForData(const Data& data, const std::string& format) {
  if (WriterFor(data, FormatForData(data, format)) == nullptr) {
    return RuntimeError("Output format not supported");
  }
  return Status();
}

Status SerializeData(Data& data, const DeviceTable& devices, std::string_view format, bool pretty,
                     std::string& out, const ChunkSink* sink) {
  const OutputFormat* found = WriterFor(data, format);
  if (found == nullptr) return RuntimeError("Output format not supported");
  data.WithLock([&] { found->write(data, devices, pretty, out, sink); });
  return Status();
}

Status WriteDataFile(Data& data, const DeviceTable& devices, const std::string& path,
                     std::string_view format, bool pretty) {
  return WriteStreamed(path, [&](const ChunkSink& sink) {
    std::string buffer;
    return SerializeData(data, devices, format, pretty, buffer, &sink);
  });
}

std::string PartName(std::string_view name, int phase) {
  return std::string(name) + ".part_" + std::to_string(phase);
}

std::string EndMarkerPath(std::string_view part_path) {
  const size_t slash = part_path.rfind('/');
  const size_t part = part_path.rfind(".part_");
  if (part == std::string_view::npos || (slash != std::string_view::npos && part < slash)) {
    return "";
  }
  size_t digits = part + 6;
  while (digits < part_path.size() && part_path[digits] >= '0' && part_path[digits] <= '9') {
    ++digits;
  }
  if (digits == part + 6 || digits >= part_path.size() || part_path[digits] != '.') return "";
  return std::string(part_path.substr(0, part)) + ".done";
}

std::string EndMarkerText(int parts_written) {
  return "{\"parts\":" + std::to_string(parts_written) + "}\n";
}

}  // namespace proton
