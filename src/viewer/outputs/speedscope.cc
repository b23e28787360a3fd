// See speedscope.h. Frames are the printed (-f) names, shared between samples; a sample is
// the list of frame indices from ROOT down to the frame. Samples follow print order, so
// speedscope's time-order view shows the tree as the terminal prints it.
#include "viewer/outputs/speedscope.h"

#include <cmath>
#include <unordered_map>

#include "viewer/common/json_text.h"
#include "viewer/names/name_format.h"
#include "viewer/outputs/output_file.h"
#include "viewer/outputs/print_depth.h"

namespace proton::viewer {
namespace {

double Weight(double v) { return std::isfinite(v) && v > 0 ? v : 0.0; }

class SpeedscopeWriter {
 public:
  explicit SpeedscopeWriter(const ReportInput& in) : in_(in), tree_(*in.print->tree) {}

  std::string Build() {
    CollectSamples();
    std::string out = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"";
    out += ",\"exporter\":\"proton-viewer\",\"name\":";
    AppendJsonString(out, Title());
    out += ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[";
    for (size_t f = 0; f < frame_names_.size(); ++f) {
      out += f > 0 ? ",{\"name\":" : "{\"name\":";
      AppendJsonString(out, frame_names_[f]);
      out += '}';
    }
    out += "]},\"profiles\":[{\"type\":\"sampled\",\"name\":";
    AppendJsonString(out, in_.print->labels[0]);
    out += ",\"unit\":\"";
    out += SpeedscopeUnit(in_.items[0], in_.print->labels[0]);
    out += "\",\"startValue\":0,\"endValue\":";
    AppendShortest(out, total_);
    out += ",\"samples\":[" + samples_ + "],\"weights\":[" + weights_ + "]}]}\n";
    return out;
  }

 private:
  std::string_view Title() const {
    if (!in_.title.empty() || in_.profiles.empty()) return in_.title;
    return in_.profiles[0].name;
  }

  uint32_t FrameIndex(NodeId n) {
    const std::string_view shown = FormatName(tree_.name(n), in_.format, scratch_);
    const auto [it, added] =
        frame_ids_.try_emplace(std::string(shown), static_cast<uint32_t>(frame_names_.size()));
    if (added) frame_names_.push_back(it->first);
    return it->second;
  }

  // Walks the printed tree; a frame's own weight is emitted once its children are known.
  void CollectSamples() {
    const std::vector<double>& values = in_.print->columns[0];
    std::vector<uint32_t> stack;  // frame indices from ROOT to the current node
    ForEachPrintedNode(tree_, in_.depth, [&](NodeId n, bool children_printed) {
      stack.resize(tree_.depth(n));
      stack.push_back(FrameIndex(n));
      double own = Weight(values[n]);
      if (children_printed) {
        for (const NodeId child : tree_.sorted_children(n)) own -= Weight(values[child]);
      }
      if (own > 0) AddSample(stack, own);
    });
  }

  void AddSample(const std::vector<uint32_t>& stack, double weight) {
    if (!weights_.empty()) {
      weights_ += ',';
      samples_ += ',';
    }
    AppendShortest(weights_, weight);
    total_ += weight;
    samples_ += '[';
    for (size_t i = 0; i < stack.size(); ++i) {
      if (i > 0) samples_ += ',';
      samples_ += std::to_string(stack[i]);
    }
    samples_ += ']';
  }

  const ReportInput& in_;
  const ProfileTree& tree_;
  std::unordered_map<std::string, uint32_t> frame_ids_;
  std::vector<std::string_view> frame_names_;  // keys of frame_ids_ (stable addresses)
  std::string samples_;
  std::string weights_;
  std::string scratch_;
  double total_ = 0;
};

}  // namespace

std::string_view SpeedscopeUnit(std::string_view item, std::string_view label) {
  static constexpr std::pair<std::string_view, std::string_view> kUnits[] = {
      {"time/ns", "nanoseconds"},      {"time/us", "microseconds"},
      {"time/ms", "milliseconds"},     {"time/s", "seconds"},
      {"cpu_time/ns", "nanoseconds"},  {"cpu_time/us", "microseconds"},
      {"cpu_time/ms", "milliseconds"}, {"cpu_time/s", "seconds"}};
  for (const auto& [derived, unit] : kUnits) {
    if (item == derived) return unit;
  }
  if (label.starts_with("time (ns)") || label.starts_with("cpu_time (ns)")) return "nanoseconds";
  if (label.starts_with("bytes")) return "bytes";
  return "none";
}

std::string BuildSpeedscope(const ReportInput& in) { return SpeedscopeWriter(in).Build(); }

Status WriteSpeedscope(const std::string& path, const ReportInput& in) {
  return WriteTextFile(path, BuildSpeedscope(in));
}

}  // namespace proton::viewer
