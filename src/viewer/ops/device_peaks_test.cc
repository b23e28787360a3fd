// Tests for the peak tables (viewer.md §4.5): the reference's entries keep their exact
// values, and every other architecture is checked, at every width, against a product's
// published figure (its SM/CU count and boost clock put into the profile's fields). The
// published figures are those cited in §4.5; dense (not sparse) rates throughout.
#include "viewer/ops/device_peaks.h"

#include <gtest/gtest.h>

namespace proton::viewer {
namespace {

DeviceInfo Device(const char* arch, double num_sms, double clock_khz) {
  DeviceInfo info;
  info.arch = arch;
  info.has_arch = true;
  info.num_sms = num_sms;
  info.clock_rate = clock_khz;
  info.bus_width = 256;
  info.memory_clock_rate = 1000000;
  return info;
}

TEST(DevicePeaks, ReferenceEntriesAreBitIdentical) {
  // §4.5's evaluated values, which compat cases (cuda_util, hip_util) depend on.
  EXPECT_EQ(PeakFlops("CUDA", Device("80", 108, 1410000), 8), 624e12);
  EXPECT_EQ(PeakFlops("CUDA", Device("89", 128, 2520000), 8), 3.303e14);
  EXPECT_EQ(PeakFlops("CUDA", Device("90", 132, 1980000), 8), 1.976496626180837e15);
  EXPECT_EQ(PeakFlops("CUDA", Device("100", 148, 1700000), 8), 4.1222144e15);
  EXPECT_EQ(PeakFlops("HIP", Device("gfx90a", 104, 1700000), 8), 1.810432e14);
  EXPECT_EQ(PeakFlops("HIP", Device("gfx942", 304, 2100000), 8), 2.6148864e15);
  EXPECT_EQ(PeakFlops("HIP", Device("gfx950", 256, 2200000), 8), 4.6137344e15);
  EXPECT_EQ(PeakFlops("CUDA", Device("80", 108, 1410000), 64), 78e12);
  EXPECT_EQ(PeakBandwidth("HIP", Device("gfx90a", 0, 0)), 3.2e12);
  EXPECT_EQ(PeakBandwidth("HIP", Device("gfx942", 0, 0)), 5.3e12);
  EXPECT_EQ(PeakBandwidth("HIP", Device("gfx950", 0, 0)), 8.0e12);
}

struct Published {
  const char* device_type;
  const char* arch;
  const char* product;
  double units;      // SMs or CUs
  double clock_khz;  // boost clock
  int width;
  double flops;  // the published dense figure for that width's format
};

// Within 1 %: published figures are rounded to three or four digits.
constexpr Published kPublished[] = {
    // Volta whitepaper, Table 1: V100 SXM2, 80 SMs, 1530 MHz, 125 FP16 tensor TFLOPS.
    {"CUDA", "70", "Tesla V100 SXM2", 80, 1530000, 16, 125e12},
    // T4 data sheet: 130 INT8 TOPS, 65 FP16 TFLOPS; 40 SMs, 1590 MHz.
    {"CUDA", "75", "Tesla T4", 40, 1590000, 8, 130e12},
    {"CUDA", "75", "Tesla T4", 40, 1590000, 16, 65e12},
    // A10 data sheet: 250 INT8 TOPS, 125 FP16 and 62.5 TF32 tensor TFLOPS; 72 SMs, 1695 MHz.
    {"CUDA", "86", "A10", 72, 1695000, 8, 250e12},
    {"CUDA", "86", "A10", 72, 1695000, 16, 125e12},
    {"CUDA", "86", "A10", 72, 1695000, 32, 62.5e12},
    // GA102 whitepaper, RTX A6000: 84 SMs, 1800 MHz, 309.7 INT8 TOPS, 154.8 FP16 TFLOPS.
    {"CUDA", "86", "RTX A6000", 84, 1800000, 8, 309.7e12},
    {"CUDA", "86", "RTX A6000", 84, 1800000, 16, 154.8e12},
    // Jetson AGX Orin technical brief: 16 SMs, 1.3 GHz, 170 sparse INT8 TOPS = 85 dense.
    {"CUDA", "87", "Jetson AGX Orin 64GB", 16, 1300000, 8, 85e12},
    // Jetson AGX Thor: 20 SMs, 1.57 GHz, 2070 sparse FP4 TFLOPS = 517.5 dense FP8.
    {"CUDA", "110", "Jetson AGX Thor", 20, 1570000, 8, 517.5e12},
    // RTX 5090: 170 SMs, 2407 MHz, 3352 AI TOPS (sparse FP4) = 838 dense FP8 TFLOPS.
    {"CUDA", "120", "GeForce RTX 5090", 170, 2407000, 8, 838e12},
    // Radeon RX 7900 XTX: 96 CUs, 2500 MHz, 122.8 INT8 TOPS (RDNA3 WMMA; INT4 245.8).
    {"HIP", "gfx1100", "Radeon RX 7900 XTX", 96, 2500000, 8, 122.8e12},
    // Radeon RX 9070 XT: 64 CUs, 2970 MHz, 779 sparse INT8 TOPS = 389.3 dense.
    {"HIP", "gfx1201", "Radeon RX 9070 XT", 64, 2970000, 8, 389.3e12},
};

TEST(DevicePeaks, NewArchitecturesMatchPublishedFigures) {
  for (const Published& p : kPublished) {
    const DeviceInfo info = Device(p.arch, p.units, p.clock_khz);
    std::string message;
    ASSERT_TRUE(HasPeakFlops(p.device_type, info, message)) << p.arch;
    ASSERT_TRUE(HasPeakBandwidth(p.device_type, info, message)) << p.arch;
    ASSERT_TRUE(HasPeakFields(p.device_type, info, true)) << p.arch;
    EXPECT_NEAR(PeakFlops(p.device_type, info, p.width) / p.flops, 1.0, 0.01)
        << p.product << " width " << p.width;
  }
}

// Every width is the 8-bit peak divided by width / 8 (the reference's rule), exactly.
TEST(DevicePeaks, EveryWidthOfEveryNewArchitecture) {
  struct Rate {
    const char* device_type;
    const char* arch;
    double per_unit_clock;
  };
  constexpr Rate kRates[] = {
      {"CUDA", "70", 2048},     {"CUDA", "75", 2048},   {"CUDA", "86", 2048},
      {"CUDA", "87", 4096},     {"CUDA", "103", 16384}, {"CUDA", "110", 16384},
      {"CUDA", "120", 2048},    {"CUDA", "121", 2048},  {"HIP", "gfx1100", 512},
      {"HIP", "gfx1201", 2048},
  };
  for (const Rate& r : kRates) {
    const DeviceInfo info = Device(r.arch, 10, 1000000);  // 10 units at 1 GHz
    for (int width : {8, 16, 32, 64}) {
      EXPECT_DOUBLE_EQ(PeakFlops(r.device_type, info, width),
                       r.per_unit_clock * 10 * 1e9 / (width / 8.0))
          << r.arch << " width " << width;
    }
  }
  // Blackwell Ultra keeps Blackwell's per-SM FP8 rate.
  EXPECT_EQ(PeakFlops("CUDA", Device("103", 148, 1700000), 8),
            PeakFlops("CUDA", Device("100", 148, 1700000), 8));
}

TEST(DevicePeaks, Bandwidth) {
  // The CUDA formula, for any arch: T4 (256-bit, 5001 MHz) 320 GB/s, A10 (384-bit, 6251 MHz)
  // 600 GB/s, as in their data sheets.
  DeviceInfo t4 = Device("75", 40, 1590000);
  t4.memory_clock_rate = 5001000;
  EXPECT_NEAR(PeakBandwidth("CUDA", t4) / 320e9, 1.0, 0.001);
  DeviceInfo a10 = Device("86", 72, 1695000);
  a10.bus_width = 384;
  a10.memory_clock_rate = 6251000;
  EXPECT_NEAR(PeakBandwidth("CUDA", a10) / 600e9, 1.0, 0.001);
  // HIP: per arch, the data sheet's figure.
  EXPECT_EQ(PeakBandwidth("HIP", Device("gfx1100", 96, 2500000)), 960e9);
  EXPECT_EQ(PeakBandwidth("HIP", Device("gfx1201", 64, 2970000)), 640e9);
}

TEST(DevicePeaks, UnknownArchitecturesStillFail) {
  std::string message;
  EXPECT_FALSE(HasPeakFlops("CUDA", Device("61", 1, 1), message));
  EXPECT_EQ(message, "Metric util: unsupported CUDA architecture 61");
  EXPECT_FALSE(HasPeakFlops("CUDA", Device("8.6", 1, 1), message));
  EXPECT_EQ(message, "Metric util: unsupported CUDA architecture 8.6");
  EXPECT_FALSE(HasPeakBandwidth("HIP", Device("gfx1030", 1, 1), message));
  EXPECT_EQ(message, "Metric util: unsupported HIP architecture gfx1030");
  EXPECT_FALSE(HasPeakFlops("XPU", Device("x", 1, 1), message));
  EXPECT_EQ(message, "Metric util: unsupported device type XPU");
}

TEST(DevicePeaks, NewCudaArchitecturesNeedSmsAndClock) {
  DeviceInfo info = Device("86", 72, 1695000);
  info.num_sms = std::nan("");
  EXPECT_FALSE(HasPeakFields("CUDA", info, true));
  EXPECT_TRUE(HasPeakFields("CUDA", info, false));  // bandwidth alone needs no SM count
  EXPECT_TRUE(HasPeakFields("CUDA", Device("80", std::nan(""), std::nan("")), true));
}

}  // namespace
}  // namespace proton::viewer
