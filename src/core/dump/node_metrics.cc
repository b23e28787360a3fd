// Metric collection for writers; see node_metrics.h.
#include "core/dump/node_metrics.h"

#include <algorithm>

namespace proton {
namespace {

MetricEntry FromValue(std::string_view key, const MetricValue& value) {
  MetricEntry e;
  e.key = key;
  if (auto* i = std::get_if<int64_t>(&value)) {
    if (*i >= 0) {
      e.kind = MetricEntry::Kind::kUint;
      e.u = static_cast<uint64_t>(*i);
    } else {
      e.kind = MetricEntry::Kind::kInt;
      e.i = *i;
    }
  } else if (auto* d = std::get_if<double>(&value)) {
    e.kind = MetricEntry::Kind::kDouble;
    e.d = *d;
  } else if (auto* iv = std::get_if<std::vector<int64_t>>(&value)) {
    e.kind = MetricEntry::Kind::kIntVector;
    e.int_vector = iv;
  } else {
    e.kind = MetricEntry::Kind::kDoubleVector;
    e.double_vector = &std::get<std::vector<double>>(value);
  }
  return e;
}

MetricEntry Uint(std::string_view key, uint64_t v) {
  MetricEntry e;
  e.key = key;
  e.u = v;
  return e;
}

MetricEntry String(std::string_view key, std::string_view v) {
  MetricEntry e;
  e.key = key;
  e.kind = MetricEntry::Kind::kString;
  e.s = v;
  return e;
}

MetricEntry Decimal(std::string_view key, uint64_t v) {
  MetricEntry e;
  e.key = key;
  e.kind = MetricEntry::Kind::kDecimal;
  e.u = v;
  return e;
}

}  // namespace

std::string_view DeviceTypeOf(const DeviceTable& devices, uint32_t device_id) {
  auto it = devices.find(device_id);
  return it == devices.end() ? std::string_view("CUDA") : std::string_view(it->second.type);
}

void CollectNodeMetrics(const TreeData& data, uint32_t node, const DeviceTable& devices,
                        const WriteOptions& options, std::vector<MetricEntry>* out) {
  out->clear();
  const std::vector<FlexMetric>* flex = data.Flex(node);
  size_t fixed_end = 0;
  if (node == kRootNode) {
    if (data.any_kernel()) {
      out->push_back(Uint("time (ns)", 0));
      out->push_back(Uint("count", 0));
    }
    if (data.pc_sampling_mode()) {
      for (std::string_view name : kPcSamplingNames) out->push_back(Uint(name, 0));
    }
    fixed_end = out->size();
    if (options.flexible_root_placeholders) {
      for (const std::string& name : data.inclusive_names()) {
        bool own = flex && std::any_of(flex->begin(), flex->end(),
                                       [&](const FlexMetric& m) { return m.name == name; });
        if (!own) out->push_back(Uint(name, 0));
      }
    }
  } else if (const KernelMetrics* k = data.Kernel(node)) {
    out->push_back(Uint("time (ns)", k->time_ns));
    out->push_back(Uint("count", k->count));
    out->push_back(Decimal("device_id", k->device_id));
    out->push_back(String("device_type", DeviceTypeOf(devices, k->device_id)));
    fixed_end = out->size();
  }
  if (node != kRootNode) {
    if (const PcCounters* pc = data.Pc(node)) {
      for (size_t i = 0; i < pc->size(); ++i) out->push_back(Uint(kPcSamplingNames[i], (*pc)[i]));
      fixed_end = out->size();
    }
  }
  if (flex) {
    for (const FlexMetric& m : *flex) out->push_back(FromValue(m.name, m.value));
  }
  std::sort(out->begin() + static_cast<std::ptrdiff_t>(fixed_end), out->end(),
            [](const MetricEntry& a, const MetricEntry& b) { return a.key < b.key; });
}

}  // namespace proton
