// See merge_source.h.
#include "viewer/merge/merge_source.h"

#include <algorithm>
#include <cmath>

#include "viewer/common/quoted.h"

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

std::string Pair(const Source& now, const Source& before) {
  return "cannot merge " + Quoted(now.display_name) + " with " + Quoted(before.display_name) + ": ";
}

Status CheckSameContext(const Source& first, const Source& now) {
  if (first.python == now.python) return Status();
  const auto kind = [](bool python) { return python ? "Python call paths" : "scopes"; };
  return Status::Error(Pair(now, first) + "one has " + kind(now.python) + ", the other " +
                       kind(first.python) + " (different contexts)");
}

// `listed` is the first file that lists devices; a file without kernels lists none and
// agrees with any other.
Status CheckSameDevices(const Source& listed, const Source& now) {
  if (now.devices.empty() || listed.devices == now.devices) return Status();
  return Status::Error(Pair(now, listed) + "recorded on different devices (" + Join(now.devices) +
                       " vs " + Join(listed.devices) + ")");
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
  if (first_) PROTON_RETURN_IF_ERROR(CheckSameContext(*first_, now));
  // Equal device lists are transitive and an empty one agrees with all: comparing each file
  // with the first one listing devices compares every pair of files.
  if (devices_) PROTON_RETURN_IF_ERROR(CheckSameDevices(*devices_, now));
  if (!devices_ && !now.devices.empty()) devices_ = now;
  if (!first_) first_ = std::move(now);
  return Status();
}

}  // namespace proton::viewer
