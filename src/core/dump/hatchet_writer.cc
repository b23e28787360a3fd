// .hatchet writer; see hatchet_writer.h. The layout is Python's json.dumps(indent=4,
// sort_keys=True) of [root, devices], wrapped in newlines.
#include "core/dump/hatchet_writer.h"

#include <algorithm>

#include "core/dump/json_text.h"

namespace proton {
namespace {

// Emits newline+indent in pretty mode, nothing in compact mode. The indentation grows by 8
// bytes per tree level, so at depth 100,000 one line starts with 800 KB of spaces: they go out
// in blocks, handing full chunks to the sink, so the buffer never holds more than a chunk.
class Layout {
 public:
  Layout(std::string& out, bool pretty, const WriteOptions* options = nullptr)
      : out_(out), pretty_(pretty), options_(options) {}
  void Line(size_t indent) {
    if (!pretty_) return;
    out_.push_back('\n');
    while (indent > 0) {
      size_t n = std::min(indent, kIndentBlock);
      out_.append(n, ' ');
      indent -= n;
      Flush();
    }
  }
  // Hands a large enough `out` to the sink. False once the sink refused a chunk: nothing more
  // is handed over, and the writer stops.
  bool Flush() {
    if (options_ == nullptr || stopped_) return !stopped_;
    stopped_ = !MaybeFlushChunk(*options_, out_);
    return !stopped_;
  }
  const char* colon() const { return pretty_ ? ": " : ":"; }
  bool pretty() const { return pretty_; }

 private:
  static constexpr size_t kIndentBlock = 1 << 12;
  std::string& out_;
  bool pretty_;
  const WriteOptions* options_;
  bool stopped_ = false;
};

template <typename T, typename Fn>
void WriteArray(std::string& out, Layout& layout, size_t indent, const std::vector<T>& v, Fn fn) {
  if (v.empty()) {
    out.append("[]");
    return;
  }
  out.push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out.push_back(',');
    layout.Line(indent + 4);
    fn(v[i]);
  }
  layout.Line(indent);
  out.push_back(']');
}

void WriteValue(std::string& out, Layout& layout, size_t indent, const MetricEntry& e) {
  switch (e.kind) {
    case MetricEntry::Kind::kUint: AppendJsonUint(out, e.u); break;
    case MetricEntry::Kind::kInt: AppendJsonInt(out, e.i); break;
    case MetricEntry::Kind::kDouble: AppendJsonDouble(out, e.d); break;
    case MetricEntry::Kind::kString: AppendJsonString(out, e.s); break;
    case MetricEntry::Kind::kDecimal:
      out.push_back('"');
      AppendJsonUint(out, e.u);
      out.push_back('"');
      break;
    case MetricEntry::Kind::kIntVector:
      WriteArray(out, layout, indent, *e.int_vector, [&](int64_t x) { AppendJsonInt(out, x); });
      break;
    case MetricEntry::Kind::kDoubleVector:
      WriteArray(out, layout, indent, *e.double_vector,
                 [&](double x) { AppendJsonDouble(out, x); });
      break;
  }
}

void WriteMetrics(std::string& out, Layout& layout, size_t indent,
                  std::vector<MetricEntry>& entries) {
  if (entries.empty()) {
    out.append("{}");
    return;
  }
  if (entries.size() > 1) {
    std::sort(entries.begin(), entries.end(),
              [](const MetricEntry& a, const MetricEntry& b) { return a.key < b.key; });
  }
  out.push_back('{');
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) out.push_back(',');
    layout.Line(indent + 4);
    AppendJsonString(out, entries[i].key);
    out.append(layout.colon());
    WriteValue(out, layout, indent + 4, entries[i]);
  }
  layout.Line(indent);
  out.push_back('}');
}

// The part of a node after its children: frame and metrics, then the closing brace.
void WriteNodeTail(std::string& out, Layout& layout, size_t indent, std::string_view name,
                   std::vector<MetricEntry>& metrics) {
  out.push_back(',');
  layout.Line(indent + 4);
  out.append("\"frame\"").append(layout.colon()).push_back('{');
  layout.Line(indent + 8);
  out.append("\"name\"").append(layout.colon());
  AppendJsonString(out, name);
  out.push_back(',');
  layout.Line(indent + 8);
  out.append("\"type\"").append(layout.colon()).append("\"function\"");
  layout.Line(indent + 4);
  out.append("},");
  layout.Line(indent + 4);
  out.append("\"metrics\"").append(layout.colon());
  WriteMetrics(out, layout, indent + 4, metrics);
  layout.Line(indent);
  out.push_back('}');
}

}  // namespace

void WriteDeviceTableJson(const DeviceTable& devices, std::string& out, bool pretty) {
  Layout layout(out, pretty);
  // type -> (index string -> info), both in byte order as JSON's sorted keys.
  std::map<std::string, std::map<std::string, const DeviceInfo*>> by_type;
  for (const auto& [id, info] : devices) by_type[info.type][std::to_string(id)] = &info;
  const size_t base = 4;
  if (by_type.empty()) {
    out.append("{}");
    return;
  }
  out.push_back('{');
  bool first_type = true;
  for (const auto& [type, ids] : by_type) {
    if (!first_type) out.push_back(',');
    first_type = false;
    layout.Line(base + 4);
    AppendJsonString(out, type);
    out.append(layout.colon()).push_back('{');
    bool first_id = true;
    for (const auto& [index, info] : ids) {
      if (!first_id) out.push_back(',');
      first_id = false;
      layout.Line(base + 8);
      AppendJsonString(out, index);
      out.append(layout.colon()).push_back('{');
      auto field = [&](std::string_view key, uint64_t v, bool last) {
        layout.Line(base + 12);
        AppendJsonString(out, key);
        out.append(layout.colon());
        AppendJsonUint(out, v);
        if (!last) out.push_back(',');
      };
      layout.Line(base + 12);
      out.append("\"arch\"").append(layout.colon());
      AppendJsonString(out, info->arch);
      out.push_back(',');
      field("bus_width", info->bus_width, false);
      field("clock_rate", info->clock_rate, false);
      field("memory_clock_rate", info->memory_clock_rate, false);
      field("num_sms", info->num_sms, true);
      layout.Line(base + 8);
      out.push_back('}');
    }
    layout.Line(base + 4);
    out.push_back('}');
  }
  layout.Line(base);
  out.push_back('}');
}

namespace {

// The node objects, from the root down, each node's children before its own frame and
// metrics (Hatchet's layout). Explicit stack: a deep tree does not recurse. False when the
// sink refused a chunk (the write stops).
bool WriteNodes(const TreeData& data, const DeviceTable& devices, const WriteOptions& options,
                Layout& layout, std::string& out) {
  const ContextTree& tree = data.tree();
  std::vector<uint32_t> offsets, kids;
  tree.SortedChildren(&offsets, &kids);
  std::vector<MetricEntry> metrics;
  // (node, next child position); a node's indentation is 4 + 8 * depth.
  struct Item {
    uint32_t node;
    uint32_t next;
  };
  std::vector<Item> stack;
  auto open = [&](uint32_t node, size_t indent) {
    layout.Line(indent);
    out.push_back('{');
    layout.Line(indent + 4);
    out.append("\"children\"").append(layout.colon());
    if (offsets[node] == offsets[node + 1]) {
      out.append("[]");
    } else {
      out.push_back('[');
    }
    stack.push_back(Item{node, offsets[node]});
    // A chain of first children opens without closing anything: flush here too, or the
    // whole descent (quadratic in depth with its indentation) would pile up in `out`.
    return layout.Flush();
  };
  if (!open(kRootNode, 4)) return false;
  while (!stack.empty()) {
    Item& top = stack.back();
    size_t indent = 4 + 8 * (stack.size() - 1);
    uint32_t end = offsets[top.node + 1];
    if (top.next < end) {
      if (top.next != offsets[top.node]) out.push_back(',');
      uint32_t child = kids[top.next++];
      if (!open(child, indent + 8)) return false;
      continue;
    }
    if (offsets[top.node] != end) {
      layout.Line(indent + 4);
      out.push_back(']');
    }
    uint32_t node = top.node;
    stack.pop_back();
    CollectNodeMetrics(data, node, devices, options, &metrics);
    WriteNodeTail(out, layout, indent, tree.name(node), metrics);
    if (!layout.Flush()) return false;
  }
  return true;
}

}  // namespace

void WriteHatchet(const TreeData& data, const DeviceTable& devices, const WriteOptions& options,
                  std::string& out, bool pretty) {
  Layout layout(out, pretty, &options);
  if (options.chunk_sink != nullptr) out.reserve(kChunkBytes + (1 << 16));
  if (pretty) out.push_back('\n');
  out.push_back('[');
  if (!WriteNodes(data, devices, options, layout, out)) return;
  out.push_back(',');
  layout.Line(4);
  WriteDeviceTableJson(devices, out, pretty);
  layout.Line(0);
  out.push_back(']');
  if (pretty) out.push_back('\n');
  MaybeFlushChunk(options, out, /*force=*/true);
}

}  // namespace proton
