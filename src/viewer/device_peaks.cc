// See device_peaks.h. Every formula is written left to right as in the spec's table, each
// step one IEEE double operation.
#include "viewer/device_peaks.h"

#include <cmath>

namespace proton::viewer {
namespace {

bool IsHipArch(std::string_view arch) {
  return arch == "gfx90a" || arch == "gfx942" || arch == "gfx950";
}
bool IsCudaFlopsArch(std::string_view arch) {
  return arch == "80" || arch == "89" || arch == "90" || arch == "100";
}
bool Present(double v) { return !std::isnan(v); }

}  // namespace

bool HasPeakBandwidth(std::string_view device_type, const DeviceInfo& info, std::string& message) {
  if (device_type == "CUDA") return true;
  if (device_type == "HIP") {
    // A missing arch is "incomplete device information", reported later (§4.4.5 check 6).
    if (!info.has_arch || IsHipArch(info.arch)) return true;
    message = "Metric util: unsupported HIP architecture " + info.arch;
    return false;
  }
  message = "Metric util: unsupported device type " + std::string(device_type);
  return false;
}

bool HasPeakFlops(std::string_view device_type, const DeviceInfo& info, std::string& message) {
  if (device_type == "CUDA") {
    if (!info.has_arch || IsCudaFlopsArch(info.arch)) return true;
    message = "Metric util: unsupported CUDA architecture " + info.arch;
    return false;
  }
  return HasPeakBandwidth(device_type, info, message);
}

bool HasPeakFields(std::string_view device_type, const DeviceInfo& info, bool need_flops) {
  if (device_type == "CUDA") {
    if (!Present(info.bus_width) || !Present(info.memory_clock_rate)) return false;
    if (!need_flops) return true;
    if (!info.has_arch) return false;
    if (info.arch == "90" || info.arch == "100") {
      return Present(info.num_sms) && Present(info.clock_rate);
    }
    return true;
  }
  if (!info.has_arch) return false;  // HIP: the arch selects both peaks
  if (!need_flops) return true;
  return Present(info.num_sms) && Present(info.clock_rate);
}

double PeakFlops(std::string_view device_type, const DeviceInfo& info, int width) {
  const double bytes_per_element = width / 8.0;
  if (device_type == "CUDA") {
    if (info.arch == "80") return 624e12 / bytes_per_element;
    if (info.arch == "89") return (330.3 * 1e12) / bytes_per_element;
    if (info.arch == "90") {
      return ((info.num_sms / 114 * info.clock_rate / (1755 * 1e3) * 1513) * 1e12) /
             bytes_per_element;
    }
    return (info.num_sms * 16384 * (info.clock_rate / 1e3) * 1e6) / bytes_per_element;  // "100"
  }
  const double k = info.arch == "gfx90a" ? 1024 : info.arch == "gfx942" ? 4096 : 8192;
  return k * info.num_sms * info.clock_rate * 1e3 / bytes_per_element;
}

double PeakBandwidth(std::string_view device_type, const DeviceInfo& info) {
  if (device_type == "CUDA") return 2 * info.bus_width * info.memory_clock_rate * 1e3 / 8;
  if (info.arch == "gfx90a") return 3.2 * 1e12;
  if (info.arch == "gfx942") return 5.3 * 1e12;
  return 8.0 * 1e12;
}

}  // namespace proton::viewer
