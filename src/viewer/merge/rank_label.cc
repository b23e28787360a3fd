// See rank_label.h.
#include "viewer/merge/rank_label.h"

#include <charconv>

namespace proton::viewer {

std::optional<long long> RankOfFileName(std::string_view path) {
  const size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  std::optional<long long> rank;
  for (size_t at = base.find(".rank"); at != std::string_view::npos;
       at = base.find(".rank", at + 1)) {
    const std::string_view digits = base.substr(at + 5);
    long long value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    const bool ends = end == digits.data() + digits.size() || *end == '.';
    if (ec == std::errc() && end != digits.data() && ends && value >= 0) rank = value;
  }
  return rank;
}

std::string RankLabel(std::string_view path, size_t position) {
  if (const std::optional<long long> rank = RankOfFileName(path)) {
    return "rank " + std::to_string(*rank);
  }
  return "input " + std::to_string(position);
}

}  // namespace proton::viewer
