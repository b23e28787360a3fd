// Test-only stand-in for libcupti (no GPU): every entry point the backend resolves, logging
// subscribe/unsubscribe/finalize on stderr so injection_cli_test.sh can see the backend's life.
#include <cupti.h>
#include <cstdio>
extern "C" {
CUptiResult cuptiGetVersion(uint32_t* v) { *v = 130001; return CUPTI_SUCCESS; }
CUptiResult cuptiGetResultString(CUptiResult, const char** s) { *s = "CUPTI_X"; return CUPTI_SUCCESS; }
CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* h, CUpti_CallbackFunc, void*) { *h = (CUpti_SubscriberHandle)1; fprintf(stderr, "[fakecupti] subscribe\n"); return CUPTI_SUCCESS; }
CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle) { fprintf(stderr, "[fakecupti] unsubscribe\n"); return CUPTI_SUCCESS; }
CUptiResult cuptiEnableCallback(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId) { return CUPTI_SUCCESS; }
CUptiResult cuptiEnableDomain(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain) { return CUPTI_SUCCESS; }
CUptiResult cuptiActivityEnable(CUpti_ActivityKind) { return CUPTI_SUCCESS; }
CUptiResult cuptiActivityDisable(CUpti_ActivityKind) { return CUPTI_SUCCESS; }
CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc) { return CUPTI_SUCCESS; }
CUptiResult cuptiActivityFlushAll(uint32_t) { return CUPTI_SUCCESS; }
CUptiResult cuptiActivityGetNextRecord(uint8_t*, size_t, CUpti_Activity**) { return CUPTI_ERROR_MAX_LIMIT_REACHED; }
CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* d) { *d = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiGetGraphId(CUgraph, uint32_t* i) { *i = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiGetGraphExecId(CUgraphExec, uint32_t* i) { *i = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiGetGraphNodeId(CUgraphNode, uint64_t* i) { *i = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiFinalize() { fprintf(stderr, "[fakecupti] finalize\n"); return CUPTI_SUCCESS; }
}
