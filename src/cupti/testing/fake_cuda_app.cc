// Test-only native "CUDA program": loads libcuda.so.1 and calls cuInit, which (with the fake
// driver) runs the injection entry of libproton.so. Exercises the non-Python start path.
//
// `proton_fake_cuda_app fork N`: then a second thread launches kernels on the fake GPU
// (PROTON_CUPTI_LIBRARY's fakecupti_launch) without pause while the main thread forks N
// children that exit through exit() (atexit handlers and the driver's teardown run in them), so
// every fork cuts through the profiler's launch, record and correlation paths. It prints how
// many kernels it launched: the profile must hold exactly those.
#include <cuda.h>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

using LaunchFn = unsigned (*)(const char*, unsigned long long, unsigned);
using DeliverFn = void (*)();

// Forks `children` times while another thread launches; returns the number launched, or -1.
long ForkWhileLaunching(int children) {
  const char* cupti_path = std::getenv("PROTON_CUPTI_LIBRARY");
  void* cupti = cupti_path != nullptr ? dlopen(cupti_path, RTLD_NOW) : nullptr;
  auto launch =
      cupti != nullptr ? reinterpret_cast<LaunchFn>(dlsym(cupti, "fakecupti_launch")) : nullptr;
  auto deliver =
      cupti != nullptr ? reinterpret_cast<DeliverFn>(dlsym(cupti, "fakecupti_deliver")) : nullptr;
  if (launch == nullptr || deliver == nullptr) return -1;
  std::atomic<bool> stop{false};
  long launched = 0;
  std::thread launcher([&] {
    while (!stop.load()) {
      if (launch("forked_kernel", 1000, 7) != 0) ++launched;
      if (launched % 64 == 0) deliver();
    }
  });
  for (int i = 0; i < children; ++i) {
    pid_t pid = fork();
    if (pid == 0) std::exit(0);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  }
  stop.store(true);
  launcher.join();
  return launched;
}

}  // namespace

int main(int argc, char** argv) {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW);
  if (driver == nullptr) {
    std::fprintf(stderr, "no libcuda.so.1: %s\n", dlerror());
    return 2;
  }
  // Called through its own type: clang's UBSan (-fsanitize=function) rejects a call through a
  // pointer of another function type, int for CUresult included.
  auto init = reinterpret_cast<CUresult (*)(unsigned int)>(dlsym(driver, "cuInit"));
  if (init == nullptr || init(0) != CUDA_SUCCESS) return 3;
  if (argc == 3 && std::string(argv[1]) == "fork") {
    long launched = ForkWhileLaunching(std::atoi(argv[2]));
    if (launched < 0) return 4;
    std::printf("launched %ld kernels\n", launched);
  }
  std::printf("native app ran\n");
  return 0;
}
