// The fake libcupti's activity buffers (test-only, no GPU): kernel records of the fake GPU are
// written into the buffers the client hands over through its buffer-requested callback, and
// handed back through its buffer-completed callback the way CUPTI does it: when a buffer is
// full (on the launching thread), and at cuptiActivityFlushAll. Records are packed at a stride
// of sizeof(KernelActivity), which is how NextRecord walks them.
// No lock is held while the client's callbacks run: they may take the client's own locks, and
// a flush may come from a thread that holds them.
#pragma once

#include <cupti.h>

#include <cstddef>
#include <cstdint>

#include "cupti/record_decoder.h"
#include "util/thread_annotations.h"

namespace proton::fakecupti {

using KernelActivity = cupti::KernelActivity;

class ActivityBuffers {
 public:
  void Register(CUpti_BuffersCallbackRequestFunc request,
                CUpti_BuffersCallbackCompleteFunc complete);
  // Asks for a buffer now if none is held (CUPTI does so when an activity kind is enabled).
  void Prepare();
  // Appends one record; completes the current buffer first when the record does not fit. A
  // record for which the client gives no buffer is counted as dropped.
  void Append(const KernelActivity& record);
  // Completes the current buffer if it holds records. The fake GPU finishes every kernel before
  // its record is queued, so a plain flush and a forced one deliver the same records.
  void Flush();
  // CUPTI's exit cleanup: the buffer held is completed, even when empty.
  void CompleteHeld();
  // The context destruction at driver teardown: the current buffer is completed; without one a
  // buffer is requested and completed empty, as CUPTI delivers them then.
  void Teardown();
  // Records dropped since the last call (cuptiActivityGetNumDroppedRecords).
  size_t TakeDropped();

  // cuptiActivityGetNextRecord over a buffer this class filled.
  static CUptiResult NextRecord(uint8_t* buffer, size_t valid_size, CUpti_Activity** record);

 private:
  struct Buffer {
    uint8_t* data = nullptr;
    size_t size = 0;
    size_t used = 0;
  };
  bool TryAppend(const KernelActivity& record);
  Buffer TakeHeld();
  Buffer Request();
  void Complete(const Buffer& buffer);
  void Install(const Buffer& fresh);

  Mutex mutex_;
  Buffer current_ PROTON_GUARDED_BY(mutex_);
  size_t dropped_ PROTON_GUARDED_BY(mutex_) = 0;
  CUpti_BuffersCallbackRequestFunc request_ PROTON_GUARDED_BY(mutex_) = nullptr;
  CUpti_BuffersCallbackCompleteFunc complete_ PROTON_GUARDED_BY(mutex_) = nullptr;
};

}  // namespace proton::fakecupti
