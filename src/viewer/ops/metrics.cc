// See metrics.h. Each -m item is resolved by the first rule of §4.1 that applies; every
// formula is written in the spec's operation order, one IEEE double operation at a time.
#include "viewer/ops/metrics.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>

#include "util/ascii.h"
#include "viewer/common/quoted.h"
#include "viewer/ops/device_peaks.h"

namespace proton::viewer {
namespace {

struct Unit {
  std::string_view name;
  double factor;  // the unit's length in seconds
};
constexpr Unit kTimeUnits[] = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};

std::optional<double> TimeUnitFactor(std::string_view unit) {
  for (const Unit& u : kTimeUnits) {
    if (u.name == unit) return u.factor;
  }
  return std::nullopt;
}

// Time table (§4.3): time/U, avg_time/U, cpu_time/U, avg_cpu_time/U.
struct TimeItem {
  std::string_view source;  // "time" or "cpu_time"
  bool average = false;
  double factor = 1;
};
std::optional<TimeItem> ParseTimeItem(std::string_view item) {
  size_t slash = item.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view head = item.substr(0, slash);
  std::optional<double> factor = TimeUnitFactor(item.substr(slash + 1));
  if (!factor) return std::nullopt;
  if (head == "time") return TimeItem{"time", false, *factor};
  if (head == "avg_time") return TimeItem{"time", true, *factor};
  if (head == "cpu_time") return TimeItem{"cpu_time", false, *factor};
  if (head == "avg_cpu_time") return TimeItem{"cpu_time", true, *factor};
  return std::nullopt;
}

// Rate table (§4.3): [g|t]byte/s and [g|t]flop[8|16|32|64]/s.
struct RateItem {
  std::string source;  // "bytes", "flops", "flops8", ...
  double factor = 1;
};
std::optional<RateItem> ParseRateItem(std::string_view item) {
  if (item.size() < 2 || item.substr(item.size() - 2) != "/s") return std::nullopt;
  std::string_view base = item.substr(0, item.size() - 2);
  double factor = 1;
  if (!base.empty() && (base[0] == 'g' || base[0] == 't')) {
    factor = base[0] == 'g' ? 1e9 : 1e12;
    base.remove_prefix(1);
  }
  if (base == "byte") return RateItem{"bytes", factor};
  for (std::string_view width : {"", "8", "16", "32", "64"}) {
    if (base == "flop" + std::string(width)) return RateItem{"flops" + std::string(width), factor};
  }
  return std::nullopt;
}

// A device_id value as the string the reference compares with the device index.
std::optional<std::string> DeviceIdText(const RawColumn& col, NodeId n) {
  switch (col.type[n]) {
    case ValueType::kString: return std::string(col.str(n));
    case ValueType::kInt: return std::to_string(col.int_value(n));
    case ValueType::kDouble: {
      const double v = col.own[n];
      char buf[64];
      if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e16) {
        std::snprintf(buf, sizeof buf, "%.1f", v);
        return std::string(buf);
      }
      return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    }
    case ValueType::kBool: return std::string(col.own[n] != 0 ? "True" : "False");
    default: return std::nullopt;
  }
}

class Resolver {
 public:
  Resolver(ProfileTree& tree, std::string_view display_name)
      : tree_(tree), display_name_(display_name) {}

  Result<ColumnRef> Resolve(const std::string& item) {
    if (item == "util") return Extra(item, "util", Util(item));
    if (std::optional<RateItem> rate = ParseRateItem(item)) {
      return Extra(item, item + " (inc)", Rate(item, *rate));
    }
    if (std::optional<TimeItem> time = ParseTimeItem(item)) {
      return Extra(item, item + " (inc)", Time(item, *time));
    }
    const size_t slash = item.find('/');
    if (slash == std::string::npos) return Raw(item);
    std::string_view rest = std::string_view(item).substr(slash + 1);
    std::string_view unit = rest.substr(0, rest.find('/'));
    if (unit != "%") {
      // kValue: the Python API raises ValueError, as the reference does (viewer.md §11.10).
      return Status::Error("Unsupported unit " + std::string(unit) + " in metric " + item,
                           ErrorKind::kValue);
    }
    return Percent(item, std::string_view(item).substr(0, slash));
  }

 private:
  // kRuntime: the Python API raises RuntimeError, as the reference does (viewer.md §11.10).
  Error NotFound(std::string_view request) const {
    return Status::Error("Metric " + AsciiLower(request) + " is not found in '" +
                             std::string(display_name_) +
                             "'. Use the --list flag to list available metrics",
                         ErrorKind::kRuntime);
  }
  static Error NotNumeric(std::string_view item) {
    return Status::Error("Metric " + std::string(item) + " is not numeric");
  }

  const RawColumn& Col(int index) const { return tree_.columns()[static_cast<size_t>(index)]; }

  // A numeric raw column named by `request`, for displaying or computing `item`.
  Result<int> NumericSource(std::string_view request, std::string_view item) const {
    const int index = MatchRawMetric(tree_, request);
    if (index == -1) return NotFound(request);
    if (index == -2 || Col(index).kind == ColumnKind::kNonNumeric) return NotNumeric(item);
    return index;
  }

  // The column's display values (inclusive sums or own values), one per node.
  std::vector<double> Display(int index) const {
    const RawColumn& col = Col(index);
    return col.inclusive ? col.inc : col.own;
  }

  // T or Tc (§4.3): the matched time column times its unit factor.
  Result<std::vector<double>> Seconds(std::string_view source, std::string_view item) const {
    PROTON_ASSIGN_OR_RETURN(const int index, NumericSource(source, item));
    const std::string& key = Col(index).key;
    const size_t open = key.find('(');
    const size_t close = open == std::string::npos ? std::string::npos : key.find(')', open + 1);
    std::optional<double> factor;
    if (close != std::string::npos) factor = TimeUnitFactor(key.substr(open + 1, close - open - 1));
    if (!factor) {
      return Status::Error("Metric " + std::string(item) +
                           " needs a time metric with a unit (s, ms, us or ns)");
    }
    std::vector<double> seconds = Display(index);
    for (double& v : seconds) v = v * *factor;
    return seconds;
  }

  Result<std::vector<double>> Time(std::string_view item, const TimeItem& t) const {
    PROTON_ASSIGN_OR_RETURN(std::vector<double> values, Seconds(t.source, item));
    if (t.average) {
      const int count = MatchRawMetric(tree_, "count");
      if (count < 0 || !Col(count).inclusive) {
        return Status::Error("Metric " + std::string(item) + " needs an inclusive count metric");
      }
      if (Col(count).kind == ColumnKind::kNonNumeric) return NotNumeric(item);
      const std::vector<double>& c = Col(count).inc;
      for (size_t n = 0; n < values.size(); ++n) values[n] = (values[n] / c[n]) / t.factor;
    } else {
      for (double& v : values) v = v / t.factor;
    }
    return values;
  }

  Result<std::vector<double>> Rate(std::string_view item, const RateItem& r) const {
    PROTON_ASSIGN_OR_RETURN(const int source, NumericSource(r.source, item));
    std::vector<double> values = Display(source);
    PROTON_ASSIGN_OR_RETURN(const std::vector<double> seconds, Seconds("time", item));
    for (size_t n = 0; n < values.size(); ++n) values[n] = (values[n] / seconds[n]) / r.factor;
    return values;
  }

  Result<ColumnRef> Percent(const std::string& item, std::string_view request) {
    PROTON_ASSIGN_OR_RETURN(const int index, NumericSource(request, item));
    const RawColumn& col = Col(index);
    std::vector<double> values = Display(index);
    double total = 0;
    if (col.inclusive) {
      total = col.inc[ProfileTree::root()];
    } else if (col.kind == ColumnKind::kInteger) {
      int64_t sum = 0;
      for (size_t n = 0; n < col.type.size(); ++n) {
        if (col.type[n] == ValueType::kInt) {
          sum = static_cast<int64_t>(static_cast<uint64_t>(sum) +
                                     static_cast<uint64_t>(col.int_value(n)));
        }
      }
      total = static_cast<double>(sum);
    } else {
      for (double v : col.own) {
        if (!std::isnan(v)) total += v;
      }
    }
    for (double& v : values) v = (v / total) * 100.0;
    return Extra(item, col.inclusive ? item + " (inc)" : item, std::move(values));
  }

  Result<ColumnRef> Raw(const std::string& item) const {
    const int index = MatchRawMetric(tree_, item);
    if (index == -1) return NotFound(item);
    if (index == -2 || Col(index).kind == ColumnKind::kNonNumeric) return NotNumeric(item);
    ColumnRef ref;
    ref.index = index;
    ref.item = item;
    if (Col(index).inclusive) {
      ref.source = ColumnRef::Source::kRawInclusive;
      ref.label = Col(index).key + " (inc)";
    } else {
      ref.source = ColumnRef::Source::kRawExclusive;
      ref.label = Col(index).key;
    }
    return ref;
  }

  // The raw columns util reads: device ids, bytes and the flops<width> present.
  struct UtilColumns {
    int device_id = -1;
    int bytes = -1;
    std::vector<std::pair<int, int>> flops;  // (width, column index)
  };
  // Per device entry: its peaks, computed once.
  struct DevicePeaks {
    std::vector<double> bandwidth;
    std::vector<std::vector<double>> flops;  // [entry][position in UtilColumns::flops]
  };

  Result<UtilColumns> FindUtilColumns() const {
    const std::string file = Quoted(display_name_);
    UtilColumns columns;
    columns.device_id = MatchRawMetric(tree_, "device_id");
    if (columns.device_id < 0) {
      return Status::Error("Metric util needs the device_id metric, which is not found in " + file);
    }
    const auto& entries = tree_.devices().entries;
    std::string message;
    for (const auto& entry : entries) {
      if (!HasPeakBandwidth(entry.device_type, entry.info, message)) return Status::Error(message);
    }
    columns.bytes = MatchRawMetric(tree_, "bytes");
    if (!entries.empty() && columns.bytes < 0) {
      return Status::Error("Metric util needs the bytes metric, which is not found in " + file);
    }
    for (int width : {8, 16, 32, 64}) {
      const int index = MatchRawMetric(tree_, "flops" + std::to_string(width));
      if (index >= 0) columns.flops.emplace_back(width, index);
    }
    if (!columns.flops.empty()) {
      for (const auto& entry : entries) {
        if (!HasPeakFlops(entry.device_type, entry.info, message)) return Status::Error(message);
      }
    }
    return columns;
  }

  Result<DevicePeaks> ComputeDevicePeaks(const UtilColumns& columns) const {
    const auto& entries = tree_.devices().entries;
    DevicePeaks peaks;
    peaks.bandwidth.resize(entries.size());
    peaks.flops.resize(entries.size());
    for (size_t entry_index = 0; entry_index < entries.size(); ++entry_index) {
      const auto& entry = entries[entry_index];
      if (!HasPeakFields(entry.device_type, entry.info, !columns.flops.empty())) {
        return Status::Error("Metric util: incomplete device information for " + entry.device_type +
                             " device " + entry.device_index);
      }
      peaks.bandwidth[entry_index] = PeakBandwidth(entry.device_type, entry.info);
      for (const auto& [width, index] : columns.flops) {
        peaks.flops[entry_index].push_back(PeakFlops(entry.device_type, entry.info, width));
      }
    }
    return peaks;
  }

  // The larger of the node's flops and bytes shares of its device's peaks, over `seconds`.
  double NodeUtil(NodeId node, const std::string& device, const UtilColumns& columns,
                  const DevicePeaks& peaks, double seconds) const {
    const auto& entries = tree_.devices().entries;
    double flops_share = 0.0;
    double bytes_share = 0.0;
    for (size_t entry_index = 0; entry_index < entries.size(); ++entry_index) {
      if (entries[entry_index].device_index != device) continue;
      for (size_t flops_index = 0; flops_index < columns.flops.size(); ++flops_index) {
        double flops = Col(columns.flops[flops_index].second).own[node];
        if (std::isnan(flops)) flops = 0;
        flops_share = flops_share + flops / peaks.flops[entry_index][flops_index];
      }
      bytes_share = bytes_share + Col(columns.bytes).own[node] / peaks.bandwidth[entry_index];
    }
    const double share = bytes_share > flops_share ? bytes_share : flops_share;
    return share / seconds;
  }

  Result<std::vector<double>> Util(std::string_view item) const {
    PROTON_ASSIGN_OR_RETURN(UtilColumns columns, FindUtilColumns());
    PROTON_ASSIGN_OR_RETURN(std::vector<double> seconds, Seconds("time", item));
    PROTON_ASSIGN_OR_RETURN(DevicePeaks peaks, ComputeDevicePeaks(columns));
    const RawColumn& ids = Col(columns.device_id);
    std::vector<double> values(tree_.size(), kMissing);
    for (NodeId node = 0; node < tree_.size(); ++node) {
      std::optional<std::string> device = DeviceIdText(ids, node);
      if (!device) continue;
      values[node] = NodeUtil(node, *device, columns, peaks, seconds[node]);
    }
    return values;
  }

  Result<ColumnRef> Extra(const std::string& item, std::string label,
                          Result<std::vector<double>> values) {
    if (!values.ok()) return std::move(values).error();
    ColumnRef ref;
    ref.source = ColumnRef::Source::kExtra;
    ref.index = static_cast<int>(tree_.extra_columns().size());
    ref.item = item;
    ref.label = label;
    tree_.extra_columns().push_back(ExtraColumn{std::move(label), std::move(values).value()});
    return ref;
  }

  ProfileTree& tree_;
  std::string_view display_name_;
};

}  // namespace

std::string ShortName(std::string_view key) {
  std::string_view head = key.substr(0, key.find('('));
  while (!head.empty() && (head.front() == ' ' || (head.front() >= '\t' && head.front() <= '\r'))) {
    head.remove_prefix(1);
  }
  while (!head.empty() && (head.back() == ' ' || (head.back() >= '\t' && head.back() <= '\r'))) {
    head.remove_suffix(1);
  }
  return AsciiLower(head);
}

int MatchRawMetric(const ProfileTree& tree, std::string_view request) {
  const std::string r = AsciiLower(request);
  const auto& columns = tree.columns();
  auto matches = [&](size_t i) { return columns[i].key == r || ShortName(columns[i].key) == r; };
  for (size_t i = 0; i < tree.num_inclusive(); ++i) {
    if (matches(i)) return static_cast<int>(i);
  }
  if (r == "name") return -2;  // the exclusive list starts with the pseudo-metric "name"
  for (size_t i = tree.num_inclusive(); i < columns.size(); ++i) {
    if (matches(i)) return static_cast<int>(i);
  }
  return -1;
}

Result<std::vector<ColumnRef>> ResolveColumns(ProfileTree& tree,
                                              const std::vector<std::string>& items,
                                              std::string_view display_name) {
  Resolver resolver(tree, display_name);
  std::vector<ColumnRef> columns;
  for (const std::string& item : items) {
    PROTON_ASSIGN_OR_RETURN(ColumnRef column, resolver.Resolve(item));
    columns.push_back(std::move(column));
  }
  return columns;
}

}  // namespace proton::viewer
