// See html_data.h. The document is assembled in one string (tens of bytes per node) and then
// made safe for a <script> element in one pass: '<' can only occur inside JSON strings.
#include "viewer/outputs/html_data.h"

#include <cctype>
#include <cmath>
#include <iterator>
#include <unordered_map>
#include <utility>

#include "viewer/common/json_text.h"
#include "viewer/names/name_format.h"
#include "viewer/outputs/merge_columns.h"
#include "viewer/outputs/straggler_data.h"

namespace proton::viewer {
namespace {

void AppendNumber(std::string& out, double v) {
  if (std::isnan(v))
    out += "null";
  else if (std::isinf(v))
    out += v > 0 ? "1e999" : "-1e999";
  else
    AppendShortest(out, v);
}

FrameKind KindOf(const ProfileTree& tree, NodeId n) {
  if (n == ProfileTree::root()) return FrameKind::kRoot;
  if (IsPythonFrameName(tree.name(n))) return FrameKind::kPython;
  return tree.children(n).empty() ? FrameKind::kKernel : FrameKind::kScope;
}

// A JSON array of one value per node of `order`: `append_value(node)` for each.
template <typename AppendValue>
void AppendList(std::string& out, const std::vector<NodeId>& order, AppendValue append_value) {
  out += '[';
  for (size_t i = 0; i < order.size(); ++i) {
    if (i > 0) out += ',';
    append_value(order[i]);
  }
  out += ']';
}

// The same as a member `,"key":[...]` of the enclosing object.
template <typename AppendValue>
void AppendArray(std::string& out, std::string_view key, const std::vector<NodeId>& order,
                 AppendValue append_value) {
  out += ",\"";
  out += key;
  out += "\":";
  AppendList(out, order, append_value);
}

const char* ModeName(ReportMode mode) {
  switch (mode) {
    case ReportMode::kDiff: return "\"diff\"";
    case ReportMode::kMerge: return "\"merge\"";
    case ReportMode::kSingle: break;
  }
  return "\"single\"";
}

// The page's columns: one per -m item. A merge prints kMergeStatCount columns per item; the
// page names the item's own label (its median column's, less ":median").
size_t ItemColumns(const ReportInput& in) {
  return in.mode == ReportMode::kMerge ? in.items.size() : in.print->labels.size();
}

std::string_view ItemLabel(const ReportInput& in, size_t c) {
  if (in.mode != ReportMode::kMerge) return in.print->labels[c];
  std::string_view label = in.print->labels[MergeColumn(c, MergeStat::kMedian)];
  label.remove_suffix(std::string_view(MergeStatSuffix(MergeStat::kMedian)).size());
  return label;
}

// The print column the page's "values" show for item c: a merge's median.
const std::vector<double>& ItemValues(const ReportInput& in, size_t c) {
  if (in.mode != ReportMode::kMerge) return in.print->columns[c];
  return in.print->columns[MergeColumn(c, MergeStat::kMedian)];
}

void AppendHeader(std::string& out, const ReportInput& in) {
  out += "{\"format\":\"proton-viewer-report\",\"version\":1,\"mode\":";
  out += ModeName(in.mode);
  out += ",\"command\":";
  AppendJsonPath(out, {in.command.begin(), in.command.end()});
  std::vector<std::string_view> names;
  for (const ReportProfile& p : in.profiles) names.push_back(p.name);
  out += ",\"profiles\":";
  AppendJsonPath(out, names);
  out += ",\"depthLimit\":" + std::to_string(in.depth) + ",\"columns\":[";
  for (size_t c = 0; c < ItemColumns(in); ++c) {
    out += c > 0 ? ",{\"item\":" : "{\"item\":";
    AppendJsonString(out, in.items[c]);
    out += ",\"label\":";
    AppendJsonString(out, ItemLabel(in, c));
    out += '}';
  }
  out += ']';
}

void AppendDeviceField(std::string& out, std::string_view key, double v) {
  if (std::isnan(v)) return;
  out += ",\"";
  out += key;
  out += "\":";
  AppendNumber(out, v);
}

void AppendDevices(std::string& out, const ReportInput& in) {
  out += ",\"devices\":[";
  bool first = true;
  for (size_t p = 0; p < in.profiles.size(); ++p) {
    if (in.profiles[p].devices == nullptr) continue;
    for (const DeviceTable::Entry& e : in.profiles[p].devices->entries) {
      out += first ? "{\"profile\":" : ",{\"profile\":";
      first = false;
      out += std::to_string(p) + ",\"type\":";
      AppendJsonString(out, e.device_type);
      out += ",\"index\":";
      AppendJsonString(out, e.device_index);
      if (e.info.has_arch) {
        out += ",\"arch\":";
        AppendJsonString(out, e.info.arch);
      }
      AppendDeviceField(out, "bus_width", e.info.bus_width);
      AppendDeviceField(out, "clock_rate", e.info.clock_rate);
      AppendDeviceField(out, "memory_clock_rate", e.info.memory_clock_rate);
      AppendDeviceField(out, "num_sms", e.info.num_sms);
      out += '}';
    }
  }
  out += ']';
}

// Names are written once each (a table in first-appearance order) and nodes refer to them
// by index: kernel and Python-frame names repeat, and this halves a large page.
void AppendNames(std::string& out, const ReportInput& in, const std::vector<NodeId>& order) {
  const ProfileTree& tree = *in.print->tree;
  std::unordered_map<std::string_view, uint32_t> index_of_name;
  std::vector<std::string_view> table;
  AppendArray(out, "name", order, [&](NodeId n) {
    const auto [it, added] =
        index_of_name.try_emplace(tree.name(n), static_cast<uint32_t>(table.size()));
    if (added) table.push_back(tree.name(n));
    out += std::to_string(it->second);
  });
  std::string scratch;
  bool formatted_differs = false;
  out += ",\"names\":[";
  for (size_t i = 0; i < table.size(); ++i) {
    if (i > 0) out += ',';
    const std::string_view shown = FormatName(table[i], in.format, scratch);
    formatted_differs = formatted_differs || shown != table[i];
    AppendJsonString(out, shown);
  }
  out += ']';
  if (!formatted_differs) return;
  out += ",\"fullNames\":";
  AppendJsonPath(out, table);
}

void AppendDiffArrays(std::string& out, const ReportInput& in, const std::vector<NodeId>& order,
                      const std::vector<uint32_t>& index_of) {
  const PrintInput& print = *in.print;
  AppendArray(out, "side", order, [&](NodeId n) {
    out += static_cast<char>('0' + (print.sides.empty() ? 0 : static_cast<int>(print.sides[n])));
  });
  AppendArray(out, "now", order, [&](NodeId n) { AppendNumber(out, in.now[n]); });
  AppendArray(out, "base", order, [&](NodeId n) { AppendNumber(out, in.base[n]); });
  if (print.row_order.empty()) return;
  AppendArray(out, "rowOrder", print.row_order,
              [&](NodeId n) { out += std::to_string(index_of[n]); });
}

// A merge's spread of each item beside its median, and how many files hold each node.
void AppendMergeArrays(std::string& out, const ReportInput& in, const std::vector<NodeId>& order) {
  static constexpr std::pair<MergeStat, std::string_view> kSpread[] = {
      {MergeStat::kMin, "min"},
      {MergeStat::kMean, "mean"},
      {MergeStat::kMax, "max"},
      {MergeStat::kImbalance, "imbalance"},
      {MergeStat::kArgmax, "argmax"}};
  out += ",\"spread\":[";
  for (size_t c = 0; c < in.items.size(); ++c) {
    out += c > 0 ? ",{" : "{";
    for (size_t s = 0; s < std::size(kSpread); ++s) {
      if (s > 0) out += ',';
      AppendJsonString(out, kSpread[s].second);
      out += ':';
      const std::vector<double>& column = in.print->columns[MergeColumn(c, kSpread[s].first)];
      AppendList(out, order, [&](NodeId n) { AppendNumber(out, column[n]); });
    }
    out += '}';
  }
  out += ']';
  const std::vector<double>& files = in.print->columns[in.items.size() * kMergeStatCount];
  AppendArray(out, "files", order, [&](NodeId n) { AppendNumber(out, files[n]); });
}

void AppendNodes(std::string& out, const ReportInput& in) {
  const ProfileTree& tree = *in.print->tree;
  const std::vector<NodeId> order = SortedPreOrder(tree);
  std::vector<uint32_t> index_of(tree.size());
  for (size_t i = 0; i < order.size(); ++i) index_of[order[i]] = static_cast<uint32_t>(i);
  out += ",\"nodes\":{\"size\":" + std::to_string(order.size());
  AppendArray(out, "parent", order, [&](NodeId n) {
    const NodeId p = tree.parent(n);
    out += p == kNoNode ? std::string("-1") : std::to_string(index_of[p]);
  });
  AppendNames(out, in, order);
  AppendArray(out, "kind", order,
              [&](NodeId n) { out += static_cast<char>('0' + static_cast<int>(KindOf(tree, n))); });
  out += ",\"values\":[";
  for (size_t c = 0; c < ItemColumns(in); ++c) {
    if (c > 0) out += ',';
    const std::vector<double>& column = ItemValues(in, c);
    AppendList(out, order, [&](NodeId n) { AppendNumber(out, column[n]); });
  }
  out += ']';
  if (in.mode == ReportMode::kDiff) AppendDiffArrays(out, in, order, index_of);
  if (in.mode == ReportMode::kMerge) AppendMergeArrays(out, in, order);
  out += '}';
}

}  // namespace

bool IsPythonFrameName(std::string_view name) {
  for (size_t at = name.find('@'); at != std::string_view::npos; at = name.find('@', at + 1)) {
    size_t digits = at;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
    if (digits < at && digits > 0 && name[digits - 1] == ':') return true;
  }
  return false;
}

std::string BuildPageData(const ReportInput& in) {
  std::string json;
  json.reserve(in.print->tree->name_bytes() + 64 * in.print->tree->size() + 4096);
  AppendHeader(json, in);
  AppendDevices(json, in);
  AppendNodes(json, in);
  if (in.stragglers != nullptr) {
    json += ',';
    AppendStragglerData(json, *in.stragglers);
  }
  json += '}';
  std::string safe;
  safe.reserve(json.size() + json.size() / 64);
  for (const char c : json) {
    if (c == '<')
      safe += "\\u003c";
    else
      safe += c;
  }
  return safe;
}

}  // namespace proton::viewer
