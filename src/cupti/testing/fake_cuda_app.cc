// Test-only native "CUDA program": loads libcuda.so.1 and calls cuInit, which (with the fake
// driver) runs the injection entry of libproton.so. Exercises the non-Python start path.
#include <dlfcn.h>

#include <cstdio>

int main() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW);
  if (driver == nullptr) {
    std::fprintf(stderr, "no libcuda.so.1: %s\n", dlerror());
    return 2;
  }
  auto init = reinterpret_cast<int (*)(unsigned int)>(dlsym(driver, "cuInit"));
  if (init == nullptr || init(0) != 0) return 3;
  std::printf("native app ran\n");
  return 0;
}
