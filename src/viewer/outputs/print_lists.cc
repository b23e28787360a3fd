// The printers after the tree (viewer.md §7.6-§7.9): --print-sorted, --list, the
// negative-bytes warning, and PrintAll, which puts every piece in the order of §7.9.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "viewer/names/name_format.h"
#include "viewer/ops/metrics.h"
#include "viewer/outputs/number_format.h"
#include "viewer/outputs/printers.h"

namespace proton::viewer {
namespace {

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// Appends `name` cut to 100 code points (+ "...") and padded with spaces to 105 code points.
void AppendSortedName(std::string& line, std::string_view name) {
  size_t code_points = 0;
  size_t cut = name.size();
  for (size_t i = 0; i < name.size(); ++i) {
    if (IsContinuationByte(name[i])) continue;
    if (code_points == 100) {
      cut = i;
      break;
    }
    ++code_points;
  }
  if (cut < name.size()) {
    line.append(name.substr(0, cut)).append("...");
    code_points += 3;
  } else {
    line.append(name);
  }
  if (code_points < 105) line.append(105 - code_points, ' ');
}

}  // namespace

void PrintSorted(OutputBuffer& out, const PrintInput& in, NameFormat format) {
  const ProfileTree& tree = *in.tree;
  std::vector<NodeId> rows = in.row_order.empty() ? SortedPreOrder(tree) : in.row_order;
  rows.erase(std::remove(rows.begin(), rows.end(), ProfileTree::root()), rows.end());
  const std::vector<double>& values = in.columns[0];
  // Descending, NaN last, ties in row order (§7.7, §10 items 2 and 15).
  std::stable_sort(rows.begin(), rows.end(), [&](NodeId a, NodeId b) {
    const double va = values[a];
    const double vb = values[b];
    if (std::isnan(va)) return false;
    return std::isnan(vb) || va > vb;
  });
  std::string line = "Sorted kernels by metric " + in.labels[0] + "\n";
  out.Write(line);
  std::string scratch;
  for (NodeId n : rows) {
    line.clear();
    AppendSortedName(line, FormatName(tree.name(n), format, scratch));
    line += ' ';
    line += FormatGeneral4(values[n]);
    line += '\n';
    out.Write(line);
  }
}

void PrintBytesWarning(OutputBuffer& out, const PrintInput& in) {
  for (size_t c = 0; c < in.labels.size(); ++c) {
    if (in.labels[c] != "bytes (inc)") continue;
    double min = kMissing;
    for (double v : in.columns[c]) {
      if (!std::isnan(v) && (std::isnan(min) || v < min)) min = v;
    }
    if (min < 0) {
      out.Write(
          "Warning: Negative byte values detected, this is usually the result of a "
          "datatype overflow\n\n");
      return;
    }
  }
}

void PrintMetricList(OutputBuffer& out, const ProfileTree& tree) {
  std::string text = "Available inclusive metrics:\n";
  const auto& columns = tree.columns();
  for (size_t i = 0; i < tree.num_inclusive(); ++i) {
    text += "- " + ShortName(columns[i].key) + "\n";
  }
  text += "Available exclusive metrics:\n- name\n";
  for (size_t i = tree.num_inclusive(); i < columns.size(); ++i) {
    text += "- " + ShortName(columns[i].key) + "\n";
  }
  out.Write(text);
}

void PrintAll(OutputBuffer& out, const PrintInput& in, const PrintOptions& options) {
  PrintTree(out, in, options);
  if (options.color) PrintLegend(out, in);
  out.Write("\n");
  if (options.print_sorted) PrintSorted(out, in, options.format);
  PrintBytesWarning(out, in);
}

}  // namespace proton::viewer
