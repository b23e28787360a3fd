// Test-only stand-in for libcupti (no GPU): every entry point the backend resolves, logging
// subscribe/unsubscribe/finalize on stderr so injection_cli_test.sh can see the backend's life.
// It also models the process exit of the real CUPTI + CUDA runtime, where the GPU machine's
// native target crashed after its profile was written:
// - CUPTI's own exit cleanup, registered with atexit when the activity API is first set up
//   (after libproton.so's load-time atexit, so it runs BEFORE a finalize registered then): it
//   flushes the outstanding activity buffers to the client and frees CUPTI's state. After it,
//   a flush is refused harmlessly, but cuptiActivityDisable/cuptiUnsubscribe/cuptiFinalize use
//   the freed state (SIGSEGV; a heap-use-after-free under ASan).
// - fakecupti_driver_teardown, called by the fake driver's own late exit handler (the CUDA
//   runtime destroying the primary context after every other handler): a still-subscribed
//   client gets a resource callback and a buffer request/completion, as CUPTI delivers them at
//   context destruction. A client that freed its backend while subscribed crashes there.
#include <cupti.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
struct ActivityState {
  int enabled_kinds = 0;
  uint8_t* outstanding = nullptr;  // a buffer the client gave us, not yet completed
  size_t outstanding_size = 0;
};
ActivityState* g_state = new ActivityState();  // freed by CUPTI's exit cleanup
bool g_cleanup_registered = false;
CUpti_CallbackFunc g_callback = nullptr;
void* g_userdata = nullptr;
bool g_subscribed = false;
CUpti_BuffersCallbackRequestFunc g_request = nullptr;
CUpti_BuffersCallbackCompleteFunc g_complete = nullptr;

void RequestBuffer() {
  if (g_request == nullptr || g_state->outstanding != nullptr) return;
  size_t max_records = 0;
  g_request(&g_state->outstanding, &g_state->outstanding_size, &max_records);
  if (g_state->outstanding != nullptr) std::memset(g_state->outstanding, 0, g_state->outstanding_size);
}

void CompleteBuffer() {
  if (g_complete == nullptr || g_state->outstanding == nullptr) return;
  uint8_t* buffer = g_state->outstanding;
  g_state->outstanding = nullptr;
  g_complete(nullptr, 0, buffer, g_state->outstanding_size, 0);
}

void CuptiExitCleanup() {
  fprintf(stderr, "[fakecupti] exit cleanup\n");
  CompleteBuffer();
  delete g_state;
  g_state = nullptr;
}
}  // namespace

extern "C" {
CUptiResult cuptiGetVersion(uint32_t* v) { *v = 130001; return CUPTI_SUCCESS; }
CUptiResult cuptiGetResultString(CUptiResult, const char** s) { *s = "CUPTI_X"; return CUPTI_SUCCESS; }
CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* h, CUpti_CallbackFunc cb, void* userdata) {
  *h = (CUpti_SubscriberHandle)1;
  g_callback = cb;
  g_userdata = userdata;
  g_subscribed = true;
  fprintf(stderr, "[fakecupti] subscribe\n");
  return CUPTI_SUCCESS;
}
CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle) {
  g_state->enabled_kinds += 0;  // uses CUPTI's state: freed after its exit cleanup
  g_subscribed = false;
  fprintf(stderr, "[fakecupti] unsubscribe\n");
  return CUPTI_SUCCESS;
}
CUptiResult cuptiEnableCallback(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId) { return CUPTI_SUCCESS; }
CUptiResult cuptiEnableDomain(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain) { return CUPTI_SUCCESS; }
CUptiResult cuptiActivityEnable(CUpti_ActivityKind) {
  ++g_state->enabled_kinds;
  RequestBuffer();
  return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityDisable(CUpti_ActivityKind) { --g_state->enabled_kinds; return CUPTI_SUCCESS; }
CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request, CUpti_BuffersCallbackCompleteFunc complete) {
  g_request = request;
  g_complete = complete;
  if (!g_cleanup_registered) g_cleanup_registered = std::atexit(CuptiExitCleanup) == 0;
  return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityFlushAll(uint32_t) {
  if (g_state == nullptr) return CUPTI_ERROR_NOT_INITIALIZED;
  return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityGetNextRecord(uint8_t*, size_t, CUpti_Activity**) { return CUPTI_ERROR_MAX_LIMIT_REACHED; }
CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* d) { *d = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiGetGraphId(CUgraph, uint32_t* i) { *i = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiGetGraphExecId(CUgraphExec, uint32_t* i) { *i = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiGetGraphNodeId(CUgraphNode, uint64_t* i) { *i = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiGetTimestamp(uint64_t* ns) { *ns = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiFinalize() {
  g_state->enabled_kinds = 0;  // uses CUPTI's state: freed after its exit cleanup
  g_callback = nullptr;
  g_request = nullptr;
  g_complete = nullptr;
  fprintf(stderr, "[fakecupti] finalize\n");
  return CUPTI_SUCCESS;
}

// Test hook (see the top comment): the primary context is destroyed at the runtime's exit.
__attribute__((visibility("default"))) void fakecupti_driver_teardown() {
  if (!g_subscribed || g_callback == nullptr) return;
  fprintf(stderr, "[fakecupti] context destroyed: callbacks to the subscriber\n");
  CUpti_ResourceData resource{};
  g_callback(g_userdata, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
             &resource);
  if (g_state == nullptr) return;
  RequestBuffer();
  CompleteBuffer();
}
}
