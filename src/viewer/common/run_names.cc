// See run_names.h.
#include "viewer/common/run_names.h"

#include <algorithm>

namespace proton::viewer {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string_view FileNameOf(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

bool IsProfileFormat(std::string_view format) {
  return IsTreeFormat(format) || format == "chrome_trace";
}

bool IsTreeFormat(std::string_view format) {
  return format == "hatchet" || format == "hatchet_msgpack";
}

std::optional<PartFileName> ParsePartFileName(std::string_view path) {
  constexpr std::string_view kPart = ".part_";
  constexpr size_t kMaxDigits = 18;  // fits int64_t
  const std::string_view name = FileNameOf(path);
  const size_t at = name.rfind(kPart);
  if (at == std::string_view::npos || at == 0) return std::nullopt;
  size_t end = at + kPart.size();
  while (end < name.size() && IsDigit(name[end])) ++end;
  const size_t digits = end - at - kPart.size();
  if (digits == 0 || digits > kMaxDigits || end >= name.size() || name[end] != '.') {
    return std::nullopt;
  }
  const std::string_view format = name.substr(end + 1);
  if (!IsProfileFormat(format)) return std::nullopt;
  PartFileName out;
  out.prefix = std::string(path.substr(0, path.size() - name.size() + at));
  for (size_t i = at + kPart.size(); i < end; ++i) out.phase = out.phase * 10 + (name[i] - '0');
  out.format = std::string(format);
  return out;
}

bool NaturalLess(std::string_view a, std::string_view b) {
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (!IsDigit(a[i]) || !IsDigit(b[j])) {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
      continue;
    }
    size_t a_end = i;
    size_t b_end = j;
    while (a_end < a.size() && IsDigit(a[a_end])) ++a_end;
    while (b_end < b.size() && IsDigit(b[b_end])) ++b_end;
    while (i + 1 < a_end && a[i] == '0') ++i;  // the value without leading zeros
    while (j + 1 < b_end && b[j] == '0') ++j;
    const std::string_view a_digits = a.substr(i, a_end - i);
    const std::string_view b_digits = b.substr(j, b_end - j);
    if (a_digits.size() != b_digits.size()) return a_digits.size() < b_digits.size();
    if (a_digits != b_digits) return a_digits < b_digits;
    i = a_end;
    j = b_end;
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;
}

std::vector<std::string> ShortLabels(const std::vector<std::string>& prefixes) {
  std::vector<std::string> labels;
  if (prefixes.empty()) return labels;
  size_t common = prefixes.size() < 2 ? 0 : prefixes[0].size();
  for (const std::string& p : prefixes) {
    common = std::min(common, p.size());
    common = static_cast<size_t>(
        std::mismatch(p.begin(), p.begin() + static_cast<ptrdiff_t>(common), prefixes[0].begin())
            .first -
        p.begin());
  }
  // Cut back to just after a separator, so "run.rank1"/"run.rank12" keep "rank1"/"rank12".
  while (common > 0 && prefixes[0][common - 1] != '.' && prefixes[0][common - 1] != '/') {
    --common;
  }
  for (const std::string& p : prefixes) {
    std::string label = p.substr(common);
    if (label.empty() || prefixes.size() < 2) label = std::string(FileNameOf(p));
    labels.push_back(label.empty() ? p : label);
  }
  return labels;
}

}  // namespace proton::viewer
