// See json_text.h.
#include "viewer/common/json_text.h"

#include <algorithm>
#include <charconv>

namespace proton::viewer {

void AppendShortest(std::string& out, double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, ec == std::errc() ? end : buf);
}

std::vector<std::string_view> FramePath(const ProfileTree& tree, NodeId n) {
  std::vector<std::string_view> path;
  for (NodeId at = n; at != kNoNode; at = tree.parent(at)) path.push_back(tree.name(at));
  std::reverse(path.begin(), path.end());
  return path;
}

void AppendJsonPath(std::string& out, const std::vector<std::string_view>& path) {
  out += '[';
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += ',';
    AppendJsonString(out, path[i]);
  }
  out += ']';
}

}  // namespace proton::viewer
