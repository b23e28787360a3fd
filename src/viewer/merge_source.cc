// See merge_source.h.
#include "viewer/merge_source.h"

#include <algorithm>
#include <cmath>

#include "viewer/quoted.h"

namespace proton::viewer {
namespace {

// A Python call-path frame (formats.md §2.6): "<file>:<line>@<function>".
bool IsPythonFrame(std::string_view name) {
  const size_t at = name.find('@');
  if (at == std::string_view::npos) return false;
  const size_t colon = name.rfind(':', at);
  if (colon == std::string_view::npos || colon + 1 == at) return false;
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(colon) + 1,
                     name.begin() + static_cast<std::ptrdiff_t>(at),
                     [](char c) { return c >= '0' && c <= '9'; });
}

std::string Describe(const DeviceTable::Entry& e) {
  const auto number = [](double v) {
    return std::isnan(v) ? std::string("?") : std::to_string(static_cast<int64_t>(v));
  };
  return e.device_type + " arch " + (e.info.has_arch ? e.info.arch : "?") + " (" +
         number(e.info.num_sms) + " SMs, clock " + number(e.info.clock_rate) + " kHz, memory " +
         number(e.info.memory_clock_rate) + " kHz, bus " + number(e.info.bus_width) + " bits)";
}

std::string Join(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

// A file without kernels lists no device and agrees with any other.
Status CheckSameSource(const Source& first, const Source& now) {
  const std::string pair =
      "cannot merge " + Quoted(now.display_name) + " with " + Quoted(first.display_name) + ": ";
  if (first.python != now.python) {
    const auto kind = [](bool python) { return python ? "Python call paths" : "scopes"; };
    return Status::Error(pair + "one has " + kind(now.python) + ", the other " +
                         kind(first.python) + " (different contexts)");
  }
  if (!first.devices.empty() && !now.devices.empty() && first.devices != now.devices) {
    return Status::Error(pair + "recorded on different devices (" + Join(now.devices) + " vs " +
                         Join(first.devices) + ")");
  }
  return Status();
}

}  // namespace

Source DescribeSource(const ProfileTree& tree, std::string display_name) {
  Source s;
  s.display_name = std::move(display_name);
  for (NodeId child : tree.children(ProfileTree::root())) {
    if (IsPythonFrame(tree.name(child))) s.python = true;
  }
  for (const DeviceTable::Entry& e : tree.devices().entries) s.devices.push_back(Describe(e));
  std::sort(s.devices.begin(), s.devices.end());
  s.devices.erase(std::unique(s.devices.begin(), s.devices.end()), s.devices.end());
  return s;
}

Status MergeSourceCheck::Check(Source now) {
  if (!first_) {
    first_ = std::move(now);
    return Status();
  }
  return CheckSameSource(*first_, now);
}

}  // namespace proton::viewer
