// The tree printer and the colour legend (viewer.md §7.3-§7.5). The tree is walked in
// pre-order with an explicit stack, and every line is written straight into the output
// buffer: the continuation prefix is one string that grows and shrinks with the walk, so
// deep trees (whose lines are quadratic in depth) stream out without being assembled.
#include <cmath>
#include <string_view>

#include "viewer/names/name_format.h"
#include "viewer/outputs/number_format.h"
#include "viewer/outputs/print_depth.h"
#include "viewer/outputs/printers.h"

namespace proton::viewer {
namespace {

constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kFaint = "\x1b[2m";
constexpr std::string_view kTee = "\xe2\x94\x9c\xe2\x94\x80 ";    // "├─ "
constexpr std::string_view kElbow = "\xe2\x94\x94\xe2\x94\x80 ";  // "└─ "
constexpr std::string_view kPipe = "\xe2\x94\x82  ";              // "│  "
constexpr std::string_view kBlank = "   ";
constexpr std::string_view kLeftMarker = " \xe2\x97\x80 ";   // " ◀ "
constexpr std::string_view kRightMarker = " \xe2\x96\xb6 ";  // " ▶ "
constexpr std::string_view kLeftMarkerColor = " \x1b[38;5;160m\xe2\x97\x80 \x1b[0m";
constexpr std::string_view kRightMarkerColor = " \x1b[38;5;28m\xe2\x96\xb6 \x1b[0m";

struct Band {
  double above;  // the band is chosen when p > above (the last band: p >= 0)
  std::string_view code;
};
constexpr Band kBands[] = {{0.9, "\x1b[38;5;196m"}, {0.7, "\x1b[38;5;208m"},
                           {0.5, "\x1b[38;5;220m"}, {0.3, "\x1b[38;5;46m"},
                           {0.1, "\x1b[38;5;34m"},  {0.0, "\x1b[38;5;22m"}};
constexpr std::string_view kBlue = "\x1b[34m";

// Smallest and largest finite value of the first column over every node (NaN if none).
struct Range {
  double min = kMissing;
  double max = kMissing;
};
Range FirstColumnRange(const PrintInput& in) {
  Range r;
  if (in.columns.empty()) return r;
  for (double v : in.columns[0]) {
    if (!std::isfinite(v)) continue;
    if (std::isnan(r.min) || v < r.min) r.min = v;
    if (std::isnan(r.max) || v > r.max) r.max = v;
  }
  return r;
}

std::string_view ColorFor(double v, const Range& r) {
  const double range = r.max - r.min;
  const double p = range != 0 ? (v - r.min) / range : v;
  for (size_t i = 0; i + 1 < std::size(kBands); ++i) {
    if (p > kBands[i].above) return kBands[i].code;
  }
  if (p >= 0) return kBands[std::size(kBands) - 1].code;
  return kBlue;
}

class TreeWriter {
 public:
  TreeWriter(OutputBuffer& out, const PrintInput& in, const PrintOptions& options)
      : out_(out), in_(in), options_(options) {
    if (options.color) range_ = FirstColumnRange(in);
  }

  // One node's line after its prefix: values, name, marker, newline.
  void Line(NodeId n) {
    for (size_t c = 0; c < in_.columns.size(); ++c) {
      const double v = in_.columns[c][n];
      char* p = out_.Reserve(kFixedBufferSize + 32);
      if (c > 0) *p++ = ' ';
      if (options_.color) {
        const std::string_view code = c == 0 ? ColorFor(v, range_) : kFaint;
        p = std::copy(code.begin(), code.end(), p);
      }
      p = FormatFixed(p, v, in_.decimals.empty() ? 3 : in_.decimals[c]);
      if (options_.color) p = std::copy(kReset.begin(), kReset.end(), p);
      out_.Commit(p);
    }
    if (!in_.columns.empty()) out_.Write(" ");
    out_.Write(FormatName(in_.tree->name(n), options_.format, scratch_));
    if (options_.color) out_.Write(kReset);
    if (!in_.sides.empty()) {
      if (in_.sides[n] == Side::kLeftOnly) {
        out_.Write(options_.color ? kLeftMarkerColor : kLeftMarker);
      } else if (in_.sides[n] == Side::kRightOnly) {
        out_.Write(options_.color ? kRightMarkerColor : kRightMarker);
      }
    }
    out_.Write("\n");
  }

  void Walk() {
    const ProfileTree& tree = *in_.tree;
    const int64_t limit = options_.depth;
    if (!PrintsAnything(tree, limit)) return;
    const NodeId root = ProfileTree::root();
    Line(root);
    if (!PrintsChildren(tree.depth(root), limit)) return;
    struct Frame {
      NodeId node;
      uint32_t next;
      size_t prefix_len;  // length of the continuation prefix for this node's children
    };
    std::vector<Frame> stack{{root, 0, 0}};
    std::string prefix;
    while (!stack.empty()) {
      Frame& top = stack.back();
      const auto kids = tree.sorted_children(top.node);
      if (top.next == kids.size()) {
        stack.pop_back();
        continue;
      }
      const NodeId child = kids[top.next++];
      const bool last = top.next == kids.size();
      const size_t base = top.prefix_len;
      prefix.resize(base);
      out_.Write(prefix);
      out_.Write(last ? kElbow : kTee);
      Line(child);
      if (PrintsChildren(tree.depth(child), limit) && !tree.sorted_children(child).empty()) {
        prefix += last ? kBlank : kPipe;
        stack.push_back(Frame{child, 0, prefix.size()});  // `top` is not used after this
      }
    }
  }

 private:
  OutputBuffer& out_;
  const PrintInput& in_;
  const PrintOptions& options_;
  Range range_;
  std::string scratch_;
};

}  // namespace

void PrintTree(OutputBuffer& out, const PrintInput& in, const PrintOptions& options) {
  TreeWriter(out, in, options).Walk();
}

void PrintLegend(OutputBuffer& out, const PrintInput& in) {
  const Range r = FirstColumnRange(in);
  const double range = r.max - r.min;
  std::string text = "\n\x1b[4mLegend\x1b[0m (Metric: ";
  text += in.labels.empty() ? std::string() : in.labels[0];
  text += " Min: ";
  AppendFixed(text, r.min, 2);
  text += " Max: ";
  AppendFixed(text, r.max, 2);
  text += ")\n";
  static constexpr double kBounds[] = {1.0, 0.9, 0.7, 0.5, 0.3, 0.1, 0.0};
  for (size_t i = 0; i < std::size(kBands); ++i) {
    text += kBands[i].code;
    text += "\xe2\x96\x88 \x1b[0m";  // "█ "
    AppendFixed(text, kBounds[i + 1] * range + r.min, 2);
    text += " - ";
    AppendFixed(text, kBounds[i] * range + r.min, 2);
    text += "\n";
  }
  text +=
      "\nname\x1b[0m User code    \x1b[38;5;160m\xe2\x97\x80 \x1b[0m Only in left graph    "
      "\x1b[38;5;28m\xe2\x96\xb6 \x1b[0m Only in right graph\n";
  out.Write(text);
}

}  // namespace proton::viewer
