// libFuzzer target for the -i/-e/-t path (viewer.md §5): Python-regex translation, PCRE2
// compilation and matching, the filter activation rules, kept sets, reduction and printing.
//
// Input layout: byte 0 picks the mode (bit 0: include or exclude, bit 1: add a threshold,
// bits 2-3: name format); the rest up to the first '\n' is the pattern; every later line
// is a node: its first byte picks the parent among the nodes so far (so any shape, including
// deep chains and duplicate siblings, is reachable), the remainder is the node's name.
// Invariants checked: errors are the documented one-line messages, a kept tree still holds
// its root, and nothing crashes, leaks or hits undefined behaviour.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "tree/profile_tree.h"
#include "viewer/common/options.h"
#include "viewer/names/name_pattern.h"
#include "viewer/ops/filters.h"
#include "viewer/ops/metrics.h"
#include "viewer/outputs/printers.h"

namespace {

using proton::tree::NodeId;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

void CheckPatternError(const std::string& message) {
  if (!StartsWith(message, "curly braces are not supported in --") &&
      !StartsWith(message, "double quotes are not supported in --") &&
      !StartsWith(message, "invalid regular expression in --") &&
      !StartsWith(message, "--include '") && !StartsWith(message, "--exclude '") &&
      !StartsWith(message, "--threshold ")) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > 8192) return 0;
  const uint8_t mode = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t eol = rest.find('\n');
  const std::string pattern(rest.substr(0, eol));
  rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);

  // The regex alone, on the pattern text itself and a few fixed names.
  proton::Result<proton::viewer::NamePattern> compiled =
      proton::viewer::NamePattern::Compile(pattern, "--include");
  if (compiled.ok()) {
    (void)compiled->Matches(pattern);  // an error (the step budget) is a valid outcome
    (void)compiled->Matches("");
    (void)compiled->Matches("ROOT");
    (void)compiled->Matches(std::string_view("\xff\xfe\n\0x", 5));
  } else {
    CheckPatternError(compiled.status().message());
  }

  // A tree from the remaining lines.
  proton::tree::ProfileTree tree;
  NodeId root = tree.AddNode(proton::tree::kNoNode, "ROOT");
  tree.SetInt(root, "count", 0);
  tree.SetInt(root, "time (ns)", 0);
  std::vector<NodeId> path{root};  // the current root-to-last-node path (pre-order building)
  int64_t index = 0;
  while (!rest.empty() && path.size() < 2000) {
    const size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (line.empty()) continue;
    const size_t keep = 1 + static_cast<uint8_t>(line[0]) % path.size();
    path.resize(keep);
    const NodeId n = tree.AddNode(path.back(), line.substr(1));
    ++index;
    if (index % 3 != 0) tree.SetInt(n, "count", index);
    if (index % 2 == 0) tree.SetDouble(n, "time (ns)", static_cast<double>(index) * 1.5);
    path.push_back(n);
  }
  if (!proton::tree::PrepareProfile(tree, "fuzz").ok()) return 0;

  proton::viewer::ViewOptions args;
  args.metrics = {"time/ns", "count/%"};
  ((mode & 1) ? args.exclude : args.include) = pattern;
  if (mode & 2) {
    args.has_threshold = true;
    args.threshold = static_cast<double>(mode >> 4);
    args.threshold_text = std::to_string(mode >> 4);
  }
  args.format = static_cast<proton::viewer::NameFormat>((mode >> 2) & 3);
  proton::Result<std::vector<proton::viewer::ColumnRef>> columns =
      proton::viewer::ResolveColumns(tree, args.metrics, "fuzz");
  if (!columns.ok()) std::abort();  // both metrics exist in every generated tree
  const proton::Status filtered = proton::viewer::ApplyFilters(tree, args, (*columns)[0], "fuzz");
  if (!filtered.ok()) {
    CheckPatternError(filtered.message());
    return 0;
  }
  if (tree.size() == 0) std::abort();

  static const int null_fd = ::open("/dev/null", O_WRONLY);
  proton::viewer::PrintInput in;
  in.tree = &tree;
  for (const proton::viewer::ColumnRef& c : *columns) {
    std::vector<double> values(tree.size());
    for (NodeId n = 0; n < tree.size(); ++n) values[n] = c.Value(tree, n);
    in.columns.push_back(std::move(values));
    in.labels.push_back(c.label);
  }
  proton::viewer::PrintOptions options;
  options.format = args.format;
  options.print_sorted = true;
  options.color = (mode & 0x40) != 0;
  proton::viewer::OutputBuffer out(null_fd, 4096);
  proton::viewer::PrintAll(out, in, options);
  return 0;
}
