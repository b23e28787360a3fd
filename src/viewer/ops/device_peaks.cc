// See device_peaks.h. Every formula is written left to right as in the spec's table, each
// step one IEEE double operation. The reference's own entries (CUDA 80, 89, 90, 100; HIP
// gfx90a, gfx942, gfx950) keep its exact expressions; the other architectures use the
// CUDA 100 / HIP expression with their own per-SM (per-CU) rate (§4.5).
#include "viewer/ops/device_peaks.h"

#include <cmath>

namespace proton::viewer {
namespace {

// Dense 8-bit (FP8, or INT8 where there is no FP8) tensor or matrix FLOPs per SM (CU) per
// clock; the sources are cited next to the table in viewer.md §4.5.
struct PerUnitRate {
  std::string_view arch;
  double flops8_per_clock;
};
constexpr PerUnitRate kCudaRates[] = {
    {"70", 2048},   {"75", 2048},   {"86", 2048},  {"87", 4096},  {"100", 16384},
    {"103", 16384}, {"110", 16384}, {"120", 2048}, {"121", 2048},
};
constexpr PerUnitRate kHipRates[] = {
    {"gfx90a", 1024}, {"gfx942", 4096}, {"gfx950", 8192}, {"gfx1100", 512}, {"gfx1201", 2048},
};

const PerUnitRate* FindRate(std::string_view device_type, std::string_view arch) {
  if (device_type == "CUDA") {
    for (const PerUnitRate& r : kCudaRates) {
      if (r.arch == arch) return &r;
    }
  } else if (device_type == "HIP") {
    for (const PerUnitRate& r : kHipRates) {
      if (r.arch == arch) return &r;
    }
  }
  return nullptr;
}

// The reference's fixed CUDA entries, which need neither num_sms nor clock_rate.
bool IsFixedCudaArch(std::string_view arch) { return arch == "80" || arch == "89"; }
bool IsHipArch(std::string_view arch) { return FindRate("HIP", arch) != nullptr; }
bool IsCudaFlopsArch(std::string_view arch) {
  return IsFixedCudaArch(arch) || arch == "90" || FindRate("CUDA", arch) != nullptr;
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
    if (IsFixedCudaArch(info.arch)) return true;
    return Present(info.num_sms) && Present(info.clock_rate);
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
    const double per_sm = FindRate(device_type, info.arch)->flops8_per_clock;
    return (info.num_sms * per_sm * (info.clock_rate / 1e3) * 1e6) / bytes_per_element;
  }
  const double per_cu = FindRate(device_type, info.arch)->flops8_per_clock;
  return per_cu * info.num_sms * info.clock_rate * 1e3 / bytes_per_element;
}

double PeakBandwidth(std::string_view device_type, const DeviceInfo& info) {
  if (device_type == "CUDA") return 2 * info.bus_width * info.memory_clock_rate * 1e3 / 8;
  if (info.arch == "gfx90a") return 3.2 * 1e12;
  if (info.arch == "gfx942") return 5.3 * 1e12;
  if (info.arch == "gfx1100") return 960 * 1e9;
  if (info.arch == "gfx1201") return 640 * 1e9;
  return 8.0 * 1e12;
}

}  // namespace proton::viewer
