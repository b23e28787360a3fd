// See file_name_facts.h.
#include "viewer/merge/file_name_facts.h"

namespace proton::viewer {
namespace {

// The number after the last `token` that a `.` or the end follows (at most 18 digits).
std::optional<int64_t> NumberAfter(std::string_view base, std::string_view token) {
  for (size_t at = base.rfind(token); at != std::string_view::npos;
       at = at == 0 ? std::string_view::npos : base.rfind(token, at - 1)) {
    size_t end = at + token.size();
    int64_t value = 0;
    size_t digits = 0;
    while (end < base.size() && base[end] >= '0' && base[end] <= '9' && digits < 18) {
      value = value * 10 + (base[end] - '0');
      ++end;
      ++digits;
    }
    if (digits > 0 && (end == base.size() || base[end] == '.')) return value;
  }
  return std::nullopt;
}

}  // namespace

FileNameFacts ParseFileName(std::string_view display_name) {
  const size_t slash = display_name.rfind('/');
  const std::string_view base =
      slash == std::string_view::npos ? display_name : display_name.substr(slash + 1);
  return {NumberAfter(base, ".rank"), NumberAfter(base, ".part_"), NumberAfter(base, ".pid")};
}

}  // namespace proton::viewer
