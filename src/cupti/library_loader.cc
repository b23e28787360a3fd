// dlopen of the driver and of libcupti, with the search order and version rules of §5.1.
#include "cupti/library_loader.h"

#include <dlfcn.h>
#include <glob.h>
#include <link.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/fork_guard.h"
#include "cupti/cupti_env.h"

namespace proton::cupti {
namespace {

std::string Join(const std::string& dir, const char* file) {
  if (dir.empty()) return file;
  return dir.back() == '/' ? dir + file : dir + "/" + file;
}

std::string VersionText(int cuda_version) {
  return std::to_string(cuda_version / 1000) + "." + std::to_string((cuda_version % 1000) / 10);
}

// The file a handle came from, for messages and NVTX_INJECTION64_PATH.
std::string HandlePath(void* handle, const std::string& fallback) {
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr && map->l_name != nullptr &&
      map->l_name[0] != '\0') {
    return map->l_name;
  }
  return fallback;
}

void AppendGlob(const std::string& pattern, std::vector<std::string>* out) {
  glob_t matches{};
  if (glob(pattern.c_str(), 0, nullptr, &matches) == 0) {
    for (size_t i = 0; i < matches.gl_pathc; ++i) out->push_back(matches.gl_pathv[i]);
  }
  globfree(&matches);
}

// argv[0] of this process as a path, found on PATH when it has no slash. Unlike
// /proc/self/exe it keeps a virtual environment's bin/python symlink unresolved.
std::string Argv0Path() {
  FILE* file = std::fopen("/proc/self/cmdline", "rb");
  if (file == nullptr) return "";
  std::string argv0;
  for (int c = std::fgetc(file); c != EOF && c != '\0'; c = std::fgetc(file)) {
    argv0.push_back(static_cast<char>(c));
  }
  std::fclose(file);
  if (argv0.empty() || argv0.find('/') != std::string::npos) return argv0;
  std::string path = EnvValue("PATH");
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string candidate = Join(path.substr(start, end - start), argv0.c_str());
    if (end > start && access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

void AppendPrefixOf(const std::string& executable, std::vector<std::string>* prefixes) {
  size_t bin = executable.rfind("/bin/");
  if (bin != std::string::npos) prefixes->push_back(executable.substr(0, bin));
}

// Python prefixes whose site-packages may hold NVIDIA's CUPTI wheel: the active virtual or
// conda environment, and the prefix of the running executable (…/bin/python3 → …), both as
// invoked and as resolved.
std::vector<std::string> PythonPrefixes() {
  std::vector<std::string> prefixes;
  for (const char* name : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    std::string value = EnvValue(name);
    if (!value.empty()) prefixes.push_back(value);
  }
  AppendPrefixOf(Argv0Path(), &prefixes);
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n > 0) AppendPrefixOf(std::string(exe, static_cast<size_t>(n)), &prefixes);
  return prefixes;
}

}  // namespace

std::vector<CuptiCandidate> CuptiSearchOrder(const CuptiSearchEnv& env) {
  using Kind = CuptiCandidate::Kind;
  std::vector<CuptiCandidate> order;
  if (!env.library.empty()) order.push_back({Kind::kFile, env.library});
  if (env.compute_major >= 10 && !env.blackwell_path.empty()) {
    order.push_back({Kind::kFile, Join(env.blackwell_path, "libcupti.so")});
  }
  if (!env.lib_path.empty()) order.push_back({Kind::kFile, Join(env.lib_path, "libcupti.so")});
  for (const char* soname : {"libcupti.so", "libcupti.so.13", "libcupti.so.12"}) {
    order.push_back({Kind::kAlreadyLoaded, soname});
  }
  for (const std::string& file : env.wheel_files) order.push_back({Kind::kFile, file});
  if (!env.cuda_home.empty()) {
    order.push_back({Kind::kFile, Join(env.cuda_home, "extras/CUPTI/lib64/libcupti.so")});
  }
  order.push_back({Kind::kFile, "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"});
  order.push_back({Kind::kLoaderSearch, "libcupti.so"});
  return order;
}

CuptiSearchEnv CurrentCuptiSearchEnv(int compute_major) {
  CuptiSearchEnv env;
  const Config& config = GetConfig();
  env.library = config.cupti_library;
  env.lib_path = config.cupti_lib_path;
  env.blackwell_path = config.cupti_lib_blackwell_path;
  env.compute_major = compute_major;
  env.cuda_home = EnvValue("CUDA_HOME");
  for (const std::string& prefix : PythonPrefixes()) {
    // nvidia-cuda-cupti-cu12 installs nvidia/cuda_cupti/lib; the CUDA 13 wheels nvidia/cu13/lib.
    for (const char* sub : {"nvidia/cu13/lib/libcupti.so*", "nvidia/cuda_cupti/lib/libcupti.so*"}) {
      AppendGlob(prefix + "/lib/python3*/site-packages/" + sub, &env.wheel_files);
    }
  }
  return env;
}

int CuptiApiToCudaVersion(uint32_t v) {
  if (v >= 100000) return static_cast<int>((v / 10000) * 1000 + ((v / 100) % 100) * 10);
  switch (v) {
    case 13: return 11000;
    case 14: return 11010;
    case 15: return 11020;
    case 16: return 11050;
    case 17: return 11060;
    case 18: return 11080;
    case 19: return 12000;
    case 20: return 12020;
    case 21: return 12030;
    case 22: return 12040;
    case 23: return 12050;
    case 24: return 12060;
    case 25: return 12070;
    case 26: return 12080;
    case 27:
    case 28: return 12090;
    default: return 0;
  }
}

int MinCudaVersionForComputeMajor(int compute_major) {
  if (compute_major >= 10) return 12080;  // Blackwell
  if (compute_major == 9) return 11080;   // Hopper
  return 0;
}

Status CheckCuptiVersion(const std::string& path, uint32_t cupti_api_version, int driver_version,
                         int compute_major) {
  int cupti_cuda = CuptiApiToCudaVersion(cupti_api_version);
  if (cupti_cuda == 0 || driver_version <= 0) return Status();  // unknown: nothing to compare
  std::string versions = "CUPTI " + VersionText(cupti_cuda) + " (API version " +
                         std::to_string(cupti_api_version) + "), CUDA driver " +
                         VersionText(driver_version);
  if (cupti_cuda / 10 > driver_version / 10) {
    return Status::Error("the CUPTI library " + path + " is newer than the CUDA driver (" +
                             versions +
                             "); set PROTON_CUPTI_LIBRARY to a CUPTI no newer than "
                             "the driver",
                         ErrorKind::kRuntime);
  }
  int needed = MinCudaVersionForComputeMajor(compute_major);
  if (needed != 0 && cupti_cuda < needed) {
    return Status::Error("the CUPTI library " + path + " is too old for this GPU (compute " +
                             "capability " + std::to_string(compute_major) + ".x needs CUPTI " +
                             VersionText(needed) + " or newer; " + versions +
                             "); set PROTON_CUPTI_LIBRARY or PROTON_CUPTI_LIB_BLACKWELL_PATH",
                         ErrorKind::kRuntime);
  }
  return Status();
}

Result<const DriverApi*> LoadDriver() {
  // Never destroyed (like the tables below): the exit finalize may run after static destructors.
  // Guarded: held across dlopen, which a fork must not cut in two.
  static ForkGuardedMutex& mutex = *new ForkGuardedMutex(LockRank::kLeaf);
  static DriverApi& api = *new DriverApi();
  static bool loaded = false;
  ForkGuardedLock lock(mutex);
  if (loaded) return &api;
  constexpr const char* kName = "libcuda.so.1";
  void* handle = dlopen(kName, RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) handle = dlopen(kName, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return Status::Error("no NVIDIA GPU driver found (cannot load libcuda.so.1)",
                         ErrorKind::kRuntime);
  }
  DriverApi resolved;
  PROTON_RETURN_IF_ERROR(ResolveDriverApi(handle, HandlePath(handle, kName), &resolved));
  api = resolved;
  loaded = true;
  return &api;
}

Result<const CuptiApi*> LoadCupti(const DriverApi* driver, int compute_major) {
  static ForkGuardedMutex& mutex = *new ForkGuardedMutex(LockRank::kLeaf);
  static CuptiApi& api = *new CuptiApi();
  static bool loaded = false;
  ForkGuardedLock lock(mutex);
  if (loaded) return &api;
  bool verbose = VerboseEnabled();
  std::string tried;
  void* handle = nullptr;
  std::string chosen;
  for (const CuptiCandidate& candidate : CuptiSearchOrder(CurrentCuptiSearchEnv(compute_major))) {
    switch (candidate.kind) {
      case CuptiCandidate::Kind::kAlreadyLoaded:
        handle = dlopen(candidate.path.c_str(), RTLD_NOW | RTLD_NOLOAD);
        break;
      case CuptiCandidate::Kind::kFile:
        if (access(candidate.path.c_str(), R_OK) == 0) {
          handle = dlopen(candidate.path.c_str(), RTLD_NOW | RTLD_LOCAL);
        }
        break;
      case CuptiCandidate::Kind::kLoaderSearch:
        handle = dlopen(candidate.path.c_str(), RTLD_NOW | RTLD_LOCAL);
        break;
    }
    if (handle != nullptr) {
      chosen = HandlePath(handle, candidate.path);
      break;
    }
    if (candidate.kind != CuptiCandidate::Kind::kAlreadyLoaded) {
      tried += (tried.empty() ? "" : ", ") + candidate.path;
    }
  }
  if (handle == nullptr) {
    return Status::Error(
        "cannot load libcupti (tried " + tried + "); set PROTON_CUPTI_LIBRARY to its path",
        ErrorKind::kRuntime);
  }
  CuptiApi resolved;
  PROTON_RETURN_IF_ERROR(ResolveCuptiApi(handle, chosen, &resolved));
  uint32_t cupti_version = 0;
  resolved.get_version(&cupti_version);
  int driver_version = 0;
  if (driver != nullptr && driver->driver_get_version != nullptr) {
    driver->driver_get_version(&driver_version);
  }
  if (verbose) {
    std::fprintf(stderr, "[proton] CUPTI: %s (API version %u), CUDA driver %d\n", chosen.c_str(),
                 cupti_version, driver_version);
  }
  PROTON_RETURN_IF_ERROR(CheckCuptiVersion(chosen, cupti_version, driver_version, compute_major));
  api = resolved;
  loaded = true;
  return &api;
}

}  // namespace proton::cupti
