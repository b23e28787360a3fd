// Writing data objects; see write_data.h.
#include "core/session/write_data.h"

#include "core/data/trace_data.h"
#include "core/data/tree_data.h"
#include "core/dump/chrome_trace_writer.h"
#include "core/dump/hatchet_writer.h"
#include "core/dump/msgpack_writer.h"
#include "core/dump/output_file.h"
#include "util/ascii.h"

namespace proton {
namespace {

Error RuntimeError(std::string message) {
  return Status::Error(std::move(message), ErrorKind::kRuntime);
}

}  // namespace

Result<std::string> ParseOutputFormat(std::string_view format) {
  std::string f = AsciiLower(format);
  if (f.empty() || f == "hatchet" || f == "hatchet_msgpack" || f == "chrome_trace") return f;
  return RuntimeError("Unknown output format: " + std::string(format));
}

std::string FormatForData(const Data& data, const std::string& format) {
  if (!format.empty()) return format;
  return data.is_trace() ? "chrome_trace" : "hatchet";
}

Status CheckFormatForData(const Data& data, const std::string& format) {
  if ((FormatForData(data, format) == "chrome_trace") != data.is_trace()) {
    return RuntimeError("Output format not supported");
  }
  return Status();
}

Status SerializeData(Data& data, const DeviceTable& devices, std::string_view format, bool pretty,
                     std::string& out, const ChunkSink* sink) {
  if (format == "chrome_trace") {
    if (!data.is_trace()) return RuntimeError("Output format not supported");
    data.WithLock([&] { WriteChromeTrace(static_cast<TraceData&>(data), out, sink); });
    return Status();
  }
  if (data.is_trace()) return RuntimeError("Output format not supported");
  auto& tree = static_cast<TreeData&>(data);
  WriteOptions options;
  options.chunk_sink = sink;
  if (format == "hatchet_msgpack") {
    data.WithLock([&] { WriteHatchetMsgpack(tree, devices, options, out); });
  } else {
    data.WithLock([&] { WriteHatchet(tree, devices, options, out, pretty); });
  }
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

}  // namespace proton
