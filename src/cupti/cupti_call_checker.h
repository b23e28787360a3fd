// The CUPTI calls whose failure the backend cannot act on (flushes, disable, unsubscribe,
// finalize, id lookups in callbacks): every such result passes through Check, which counts the
// failures per call name and prints one "[proton] warning: <call> failed: <RESULT> (<n>)" line
// the first time a (call, result) pair fails, so that a failure is neither silent nor repeated
// once per flush. It never aborts and never throws: a problem while profiling only warns
// (docs/spec/architecture.md). PROTON_VERBOSE prints the counts at Stop (CuptiBackend).
// Threads: any; success costs one comparison, a failure takes a mutex.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "cupti/cupti_api.h"
#include "util/thread_annotations.h"

namespace proton::cupti {

class CuptiCallChecker {
 public:
  // True when `result` is CUPTI_SUCCESS; otherwise counts it (and warns the first time).
  // `api` names the result (CuptiResultName); `call` is the C function's name.
  bool Check(const CuptiApi* api, CUptiResult result, const char* call) {
    if (result != CUPTI_SUCCESS) [[unlikely]] {
      NoteFailure(api, result, call);
      return false;
    }
    return true;
  }

  uint64_t failures(std::string_view call) const;  // of `call`, any result
  uint64_t total_failures() const;
  // "cuptiActivityFlushAll 3, cuptiFinalize 1" in call-name order ("" when none failed).
  std::string Summary() const;

 private:
  void NoteFailure(const CuptiApi* api, CUptiResult result, const char* call) noexcept;

  mutable Mutex mutex_;
  std::map<std::string, uint64_t, std::less<>> failures_ PROTON_GUARDED_BY(mutex_);
  std::set<std::pair<std::string, int>> warned_ PROTON_GUARDED_BY(mutex_);
};

}  // namespace proton::cupti
