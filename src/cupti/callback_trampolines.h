// Internal: the C entry points handed to CUPTI, and the process-wide pointer to the backend
// that owns the activity buffer callbacks (cuptiActivityRegisterCallbacks takes no user data).
#pragma once

#include <cupti.h>

namespace proton::cupti {

class CuptiBackend;

void CUPTIAPI CallbackTrampoline(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                 const void* data);
void CUPTIAPI BufferRequestedTrampoline(uint8_t** buffer, size_t* size, size_t* max_records);
void CUPTIAPI BufferCompletedTrampoline(CUcontext context, uint32_t stream_id, uint8_t* buffer,
                                        size_t size, size_t valid_size);
void SetBufferOwner(CuptiBackend* backend);
// After this, every entry point above returns at once (process exit: CuptiBackend::Stop).
void DetachCallbacks();
// PROTON_DEBUG_CALLBACKS: every callback prints one stderr line (set at Start).
void SetCallbackDebug(bool on);
// PROTON_DEBUG_CALLBACKS is on (the record decoder prints graph kernel records then).
bool CallbackDebug();

}  // namespace proton::cupti
