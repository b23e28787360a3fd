// The viewer's printers (viewer.md §7): the tree (plain or coloured, with markers), the colour
// legend, --print-sorted, --list, and the negative-bytes warning. They read a PrintInput: the
// tree to print plus one value array per column, so plain runs and diffs print the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "viewer/common/options.h"
#include "viewer/common/tree_names.h"
#include "viewer/outputs/output_buffer.h"

namespace proton::viewer {

enum class Side : uint8_t { kBoth = 0, kLeftOnly = 1, kRightOnly = 2 };

struct PrintInput {
  const ProfileTree* tree = nullptr;         // structure and stored names
  std::vector<std::vector<double>> columns;  // per -m column, one value per node of tree
  std::vector<std::string> labels;           // per column (§4.6)
  std::vector<int> decimals;                 // per column; empty = 3 for every column
  std::vector<Side> sides;                   // diff markers; empty when none are shown
  std::vector<NodeId> row_order;             // --print-sorted ties; empty = tree pre-order
};

struct PrintOptions {
  int64_t depth = 100;
  NameFormat format = NameFormat::kFull;
  bool color = false;
  bool print_sorted = false;
};

// Everything of §7.9 in order: tree, legend (colour), "\n", sorted list, warning.
void PrintAll(OutputBuffer& out, const PrintInput& in, const PrintOptions& options);

// The pieces, exposed for tests.
void PrintTree(OutputBuffer& out, const PrintInput& in, const PrintOptions& options);
void PrintLegend(OutputBuffer& out, const PrintInput& in);
void PrintSorted(OutputBuffer& out, const PrintInput& in, NameFormat format);
void PrintBytesWarning(OutputBuffer& out, const PrintInput& in);

// --list (§7.6).
void PrintMetricList(OutputBuffer& out, const ProfileTree& tree);

}  // namespace proton::viewer
