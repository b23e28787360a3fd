// Lazy loading of libcuda.so.1 and libcupti (profiler.md §5.1). Each library is loaded at most
// once per process and never unloaded; the search order for libcupti is a pure function so it
// can be tested without the files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cupti/cupti_api.h"
#include "util/status.h"

namespace proton::cupti {

// Inputs of the libcupti search, gathered from the environment by CurrentCuptiSearchEnv().
struct CuptiSearchEnv {
  std::string library;                   // PROTON_CUPTI_LIBRARY
  std::string lib_path;                  // PROTON_CUPTI_LIB_PATH / TRITON_CUPTI_LIB_PATH
  std::string blackwell_path;            // PROTON_CUPTI_LIB_BLACKWELL_PATH / TRITON_…
  int compute_major = 0;                 // of device 0; 0 when unknown
  std::vector<std::string> wheel_files;  // libcupti files of installed NVIDIA wheels
  std::string cuda_home;                 // $CUDA_HOME
};

struct CuptiCandidate {
  enum class Kind { kFile, kAlreadyLoaded, kLoaderSearch };
  Kind kind = Kind::kFile;
  std::string path;  // a file, or a soname for kAlreadyLoaded / kLoaderSearch
};

// The candidates in the order of §5.1; the first that loads wins.
std::vector<CuptiCandidate> CuptiSearchOrder(const CuptiSearchEnv& env);
CuptiSearchEnv CurrentCuptiSearchEnv(int compute_major);

// CUDA version (driver encoding, 1000*major + 10*minor) of a CUPTI API version: 130001 → 13000,
// 22 → 12040. 0 when unknown.
int CuptiApiToCudaVersion(uint32_t cupti_api_version);
// Oldest CUDA version (driver encoding) whose CUPTI supports a compute capability major; 0 = any.
int MinCudaVersionForComputeMajor(int compute_major);
// The §5.1 version rule. `compute_major` 0 skips the GPU-generation check.
Status CheckCuptiVersion(const std::string& path, uint32_t cupti_api_version, int driver_version,
                         int compute_major);

// libcuda.so.1: RTLD_NOLOAD first, then a normal load. Error when there is no driver.
Result<const DriverApi*> LoadDriver();
// libcupti by CuptiSearchOrder, then the version check. Cached: the first success is kept.
Result<const CuptiApi*> LoadCupti(const DriverApi* driver, int compute_major);

}  // namespace proton::cupti
