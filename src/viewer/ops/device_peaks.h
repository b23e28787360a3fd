// Peak throughput tables for the `util` metric (viewer.md §4.5): the reference's entries,
// evaluated in exactly its operation order so that results match bit for bit, and the
// architectures it lacks (§4.5.1), by the same rule.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"
#include "viewer/common/tree_names.h"

namespace proton::viewer {

// Whether (device_type, arch) has a peak bandwidth / a peak FLOP/s formula. On false,
// `message` is the §9.2 text ("Metric util: unsupported HIP architecture gfx1030", ...).
bool HasPeakBandwidth(std::string_view device_type, const DeviceInfo& info, std::string& message);
bool HasPeakFlops(std::string_view device_type, const DeviceInfo& info, std::string& message);

// Whether the fields the formulas need are present (arch, num_sms, clock_rate, bus_width,
// memory_clock_rate, as far as the device type and `need_flops` require).
bool HasPeakFields(std::string_view device_type, const DeviceInfo& info, bool need_flops);

// Peak FLOP/s for `width` (8, 16, 32, 64) and peak bytes/s; the checks above must hold.
double PeakFlops(std::string_view device_type, const DeviceInfo& info, int width);
double PeakBandwidth(std::string_view device_type, const DeviceInfo& info);

}  // namespace proton::viewer
