// .hatchet_msgpack writer; see msgpack_writer.h.
#include "core/dump/msgpack_writer.h"

#include <bit>
#include <charconv>
#include <cstring>

namespace proton {
namespace {

void BigEndian(std::string& out, uint64_t v, int bytes) {
  char buf[8];
  for (int i = 0; i < bytes; ++i) buf[i] = static_cast<char>((v >> (8 * (bytes - 1 - i))) & 0xff);
  out.append(buf, static_cast<size_t>(bytes));
}

void Byte(std::string& out, unsigned v) { out.push_back(static_cast<char>(v)); }

void Header(std::string& out, uint32_t n, unsigned fix, unsigned fix_max, unsigned c16,
            unsigned c32) {
  if (n <= fix_max) {
    Byte(out, fix | n);
  } else if (n <= 0xffff) {
    Byte(out, c16);
    BigEndian(out, n, 2);
  } else {
    Byte(out, c32);
    BigEndian(out, n, 4);
  }
}

void WriteEntry(std::string& out, const MetricEntry& e) {
  MsgpackString(out, e.key);
  switch (e.kind) {
    case MetricEntry::Kind::kUint: MsgpackUint(out, e.u); break;
    case MetricEntry::Kind::kInt: MsgpackInt(out, e.i); break;
    case MetricEntry::Kind::kDouble: MsgpackDouble(out, e.d); break;
    case MetricEntry::Kind::kString: MsgpackString(out, e.s); break;
    case MetricEntry::Kind::kDecimal: {
      char buf[24];
      auto res = std::to_chars(buf, buf + sizeof(buf), e.u);
      MsgpackString(out, std::string_view(buf, static_cast<size_t>(res.ptr - buf)));
      break;
    }
    case MetricEntry::Kind::kIntVector:
      MsgpackArrayHeader(out, static_cast<uint32_t>(e.int_vector->size()));
      for (int64_t x : *e.int_vector) MsgpackInt(out, x);
      break;
    case MetricEntry::Kind::kDoubleVector:
      MsgpackArrayHeader(out, static_cast<uint32_t>(e.double_vector->size()));
      for (double x : *e.double_vector) MsgpackDouble(out, x);
      break;
  }
}

}  // namespace

void MsgpackUint(std::string& out, uint64_t v) {
  if (v <= 0x7f) {
    Byte(out, static_cast<unsigned>(v));
  } else if (v <= 0xff) {
    Byte(out, 0xcc);
    BigEndian(out, v, 1);
  } else if (v <= 0xffff) {
    Byte(out, 0xcd);
    BigEndian(out, v, 2);
  } else if (v <= 0xffffffffull) {
    Byte(out, 0xce);
    BigEndian(out, v, 4);
  } else {
    Byte(out, 0xcf);
    BigEndian(out, v, 8);
  }
}

void MsgpackInt(std::string& out, int64_t v) {
  if (v >= 0) return MsgpackUint(out, static_cast<uint64_t>(v));
  auto u = static_cast<uint64_t>(v);
  if (v >= -32) {
    Byte(out, static_cast<unsigned>(u & 0xff));
  } else if (v >= INT8_MIN) {
    Byte(out, 0xd0);
    BigEndian(out, u, 1);
  } else if (v >= INT16_MIN) {
    Byte(out, 0xd1);
    BigEndian(out, u, 2);
  } else if (v >= INT32_MIN) {
    Byte(out, 0xd2);
    BigEndian(out, u, 4);
  } else {
    Byte(out, 0xd3);
    BigEndian(out, u, 8);
  }
}

void MsgpackDouble(std::string& out, double v) {
  Byte(out, 0xcb);
  BigEndian(out, std::bit_cast<uint64_t>(v), 8);
}

void MsgpackString(std::string& out, std::string_view s) {
  auto n = static_cast<uint32_t>(s.size());
  if (n <= 31) {
    Byte(out, 0xa0 | n);
  } else if (n <= 0xff) {
    Byte(out, 0xd9);
    BigEndian(out, n, 1);
  } else if (n <= 0xffff) {
    Byte(out, 0xda);
    BigEndian(out, n, 2);
  } else {
    Byte(out, 0xdb);
    BigEndian(out, n, 4);
  }
  out.append(s);
}

void MsgpackArrayHeader(std::string& out, uint32_t n) { Header(out, n, 0x90, 15, 0xdc, 0xdd); }
void MsgpackMapHeader(std::string& out, uint32_t n) { Header(out, n, 0x80, 15, 0xde, 0xdf); }

void WriteHatchetMsgpack(const TreeData& data, const DeviceTable& devices,
                         const WriteOptions& options, std::string& out) {
  const ContextTree& tree = data.tree();
  std::vector<uint32_t> offsets, kids;
  tree.SortedChildren(&offsets, &kids);
  std::vector<MetricEntry> metrics;
  if (options.chunk_sink != nullptr) out.reserve(kChunkBytes + (1 << 16));
  MsgpackArrayHeader(out, 2);
  // Pre-order walk: MessagePack containers carry their sizes up front, so nothing is closed.
  std::vector<uint32_t> stack{kRootNode};
  while (!stack.empty()) {
    uint32_t node = stack.back();
    stack.pop_back();
    MsgpackMapHeader(out, 3);
    MsgpackString(out, "frame");
    MsgpackMapHeader(out, 2);
    MsgpackString(out, "name");
    MsgpackString(out, tree.name(node));
    MsgpackString(out, "type");
    MsgpackString(out, "function");
    MsgpackString(out, "metrics");
    CollectNodeMetrics(data, node, devices, options, &metrics);
    MsgpackMapHeader(out, static_cast<uint32_t>(metrics.size()));
    for (const MetricEntry& e : metrics) WriteEntry(out, e);
    MsgpackString(out, "children");
    uint32_t b = offsets[node], e = offsets[node + 1];
    MsgpackArrayHeader(out, e - b);
    for (uint32_t i = e; i > b; --i) stack.push_back(kids[i - 1]);
    if (!MaybeFlushChunk(options, out)) return;  // the sink refused: the write stops
  }
  std::map<std::string, std::map<std::string, const DeviceInfo*>> by_type;
  for (const auto& [id, info] : devices) by_type[info.type][std::to_string(id)] = &info;
  MsgpackMapHeader(out, static_cast<uint32_t>(by_type.size()));
  for (const auto& [type, ids] : by_type) {
    MsgpackString(out, type);
    MsgpackMapHeader(out, static_cast<uint32_t>(ids.size()));
    for (const auto& [index, info] : ids) {
      MsgpackString(out, index);
      MsgpackMapHeader(out, 5);
      MsgpackString(out, "clock_rate");
      MsgpackUint(out, info->clock_rate);
      MsgpackString(out, "memory_clock_rate");
      MsgpackUint(out, info->memory_clock_rate);
      MsgpackString(out, "bus_width");
      MsgpackUint(out, info->bus_width);
      MsgpackString(out, "arch");
      MsgpackString(out, info->arch);
      MsgpackString(out, "num_sms");
      MsgpackUint(out, info->num_sms);
    }
  }
  MaybeFlushChunk(options, out, /*force=*/true);
}

}  // namespace proton
