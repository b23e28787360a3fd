// The bare-CUPTI floor of profiler.md §7.4: the least any CUPTI-based profiler pays per launch.
// Injected with CUDA_INJECTION64_PATH, or started and stopped through cupti_floor_start/stop, it
// subscribes with an empty callback for the same driver launch ids our backend enables, and
// enables only CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL with 64 MiB buffers whose records are
// walked and counted. Nothing is attributed or written.
// Built by bench/overhead/run_overhead.py, with the id lists of src/cupti/callback_ids.cc:
//   g++ -O2 -std=c++20 -shared -fPIC cupti_floor.cc src/cupti/callback_ids.cc -Isrc
//       -I<cuda>/include -L<cupti dir> -lcupti
#include <cupti.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "cupti/callback_ids.h"  // the very id lists our backend enables

namespace {

CUpti_SubscriberHandle g_subscriber = nullptr;
std::atomic<unsigned long long> g_records{0};
constexpr size_t kBufferSize = 64u << 20;

void CUPTIAPI EmptyCallback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferSize));
  *size = *buffer != nullptr ? kBufferSize : 0;
  *max_records = 0;
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) ++g_records;
  std::free(buffer);
}

void AtExit() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  if (std::getenv("CUPTI_FLOOR_VERBOSE") != nullptr) {
    std::fprintf(stderr, "[cupti_floor] %llu kernel records\n", g_records.load());
  }
}

}  // namespace

// Subscribes and enables; 0 on success. After cupti_floor_stop it may start again, as a
// profiler's start() after finalize() does (ab_workload.py loads this with ctypes).
// `ours_callbacks`: also enable the other callbacks our backend enables.
extern "C" __attribute__((visibility("default"))) int cupti_floor_start_with(int ours_callbacks) {
  if (g_subscriber != nullptr) return 0;
  if (cuptiSubscribe(&g_subscriber, &EmptyCallback, nullptr) != CUPTI_SUCCESS) {
    std::fprintf(stderr, "[cupti_floor] cuptiSubscribe failed\n");
    g_subscriber = nullptr;
    return 1;
  }
  auto enable = [](CUpti_CallbackDomain domain, std::span<const CUpti_CallbackId> ids) {
    for (CUpti_CallbackId id : ids) cuptiEnableCallback(1, g_subscriber, domain, id);
  };
  namespace ours = proton::cupti;
  enable(CUPTI_CB_DOMAIN_DRIVER_API, ours::KernelLaunchIds());
  if (ours_callbacks != 0) {  // everything else our backend enables (NVTX aside)
    enable(CUPTI_CB_DOMAIN_DRIVER_API, ours::GraphLaunchIds());
    enable(CUPTI_CB_DOMAIN_DRIVER_API, ours::CaptureBeginIds());
    enable(CUPTI_CB_DOMAIN_DRIVER_API, ours::CaptureEndIds());
    enable(CUPTI_CB_DOMAIN_RESOURCE, ours::GraphResourceIds());
  }
  cuptiActivityRegisterCallbacks(&BufferRequested, &BufferCompleted);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  return 0;
}

extern "C" __attribute__((visibility("default"))) int cupti_floor_start() {
  return cupti_floor_start_with(0);
}

// Detaches the way a profiler's finalize does: flush, disable, unsubscribe, cuptiFinalize.
extern "C" __attribute__((visibility("default"))) void cupti_floor_stop() {
  if (g_subscriber == nullptr) return;
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiEnableDomain(0, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  cuptiEnableDomain(0, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE);
  cuptiUnsubscribe(g_subscriber);
  g_subscriber = nullptr;
  cuptiFinalize();
}

// As a CUDA injection library (CUDA_INJECTION64_PATH): on for the whole process.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  static bool done = false;
  if (done) return 1;
  done = true;
  if (cupti_floor_start() == 0) std::atexit(&AtExit);
  return 1;
}
