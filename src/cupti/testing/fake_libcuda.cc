// Test-only stand-in for libcuda.so.1 (no GPU): just the entry points the CUPTI backend
// resolves, and a cuInit that loads CUDA_INJECTION64_PATH and calls its InitializeInjection on
// the calling thread, as the real driver does. Used by injection_cli_test.sh and the launcher
// tests. Its one device (ordinal 0) reports the H200's attributes (arch 90, 132 SMs, clocks,
// bus width), so profiles carry the device table of a real H200 run; kernels are launched
// through the fake libcupti's test hook fakecupti_launch (see fake_libcupti.cc).
// Before it loads the injection it registers an exit handler standing for the CUDA runtime's
// own teardown (registered before main by the program's fatbinary registration, so it runs
// after every handler libproton.so registers): the primary context is destroyed, and the
// fake CUPTI delivers that to its subscriber (fakecupti_driver_teardown).
#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
extern "C" {
static bool g_init = false;
static void RuntimeTeardown() {
  const char* cupti = getenv("PROTON_CUPTI_LIBRARY");
  void* h = cupti ? dlopen(cupti, RTLD_NOW | RTLD_NOLOAD) : nullptr;
  auto fn = h ? (void (*)())dlsym(h, "fakecupti_driver_teardown") : nullptr;
  if (fn) fn();
}
CUresult cuInit(unsigned int) {
  if (g_init) return CUDA_SUCCESS;
  g_init = true;
  atexit(RuntimeTeardown);
  const char* inj = getenv("CUDA_INJECTION64_PATH");
  if (inj) {
    void* h = dlopen(inj, RTLD_NOW);
    auto fn = h ? (int (*)())dlsym(h, "InitializeInjection") : nullptr;
    fprintf(stderr, "[fakecuda] injection %s -> %s\n", inj, fn ? "calling" : "missing");
    if (fn) fn();
    fprintf(stderr, "[fakecuda] injection returned\n");
  }
  return CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int* v) {
  *v = 13000;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult, const char** s) {
  *s = "CUDA_ERROR_X";
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int* c) {
  *c = g_init ? 1 : 0;
  return g_init ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}
CUresult cuDeviceGet(CUdevice* d, int o) {
  if (!g_init) return CUDA_ERROR_NOT_INITIALIZED;
  if (o != 0) return CUDA_ERROR_INVALID_DEVICE;  // one device, as cuDeviceGetCount says
  *d = o;
  return CUDA_SUCCESS;
}
// The H200 of the reference files (profiler.md §4, G16), so the device table a run with the
// fake GPU writes is the one a real H200 run writes.
CUresult cuDeviceGetAttribute(int* v, CUdevice_attribute attribute, CUdevice device) {
  if (!g_init) return CUDA_ERROR_NOT_INITIALIZED;
  if (device != 0) return CUDA_ERROR_INVALID_DEVICE;
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *v = 1980000; break;            // kHz
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 3201000; break;     // kHz
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 6016; break;  // bits
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
CUresult cuCtxPushCurrent_v2(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxPopCurrent_v2(CUcontext* c) {
  *c = nullptr;
  return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }
}
