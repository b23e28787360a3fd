// Test-only stand-in for libcuda.so.1 (no GPU): just the entry points the CUPTI backend
// resolves, and a cuInit that loads CUDA_INJECTION64_PATH and calls its InitializeInjection on
// the calling thread, as the real driver does. Used by injection_cli_test.sh.
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
CUresult cuDriverGetVersion(int* v) { *v = 13000; return CUDA_SUCCESS; }
CUresult cuGetErrorName(CUresult, const char** s) { *s = "CUDA_ERROR_X"; return CUDA_SUCCESS; }
CUresult cuDeviceGetCount(int* c) { *c = g_init ? 1 : 0; return g_init ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED; }
CUresult cuDeviceGet(CUdevice* d, int o) { if (!g_init) return CUDA_ERROR_NOT_INITIALIZED; *d = o; return CUDA_SUCCESS; }
CUresult cuDeviceGetAttribute(int* v, CUdevice_attribute, CUdevice) {
  *v = 9;
  return CUDA_SUCCESS;
}
CUresult cuCtxPushCurrent_v2(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxPopCurrent_v2(CUcontext* c) { *c = nullptr; return CUDA_SUCCESS; }
CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }
}
