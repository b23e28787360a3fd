// CuptiCallChecker; see cupti_call_checker.h.
#include "cupti/cupti_call_checker.h"

#include <cstdio>

namespace proton::cupti {

void CuptiCallChecker::NoteFailure(const CuptiApi* api, CUptiResult result,
                                   const char* call) noexcept {
  try {
    bool first;
    {
      MutexLock lock(mutex_);
      ++failures_[call];
      first = warned_.emplace(call, static_cast<int>(result)).second;
    }
    // Named outside the lock: CuptiResultName calls into CUPTI.
    if (first) {
      std::fprintf(stderr, "[proton] warning: %s\n", CuptiCallError(api, call, result).c_str());
    }
  } catch (...) {
    // Out of memory while counting: the failure goes uncounted, the program goes on.
  }
}

uint64_t CuptiCallChecker::failures(std::string_view call) const {
  MutexLock lock(mutex_);
  auto it = failures_.find(call);
  return it == failures_.end() ? 0 : it->second;
}

uint64_t CuptiCallChecker::total_failures() const {
  MutexLock lock(mutex_);
  uint64_t total = 0;
  for (const auto& [call, count] : failures_) total += count;
  return total;
}

std::string CuptiCallChecker::Summary() const {
  MutexLock lock(mutex_);
  std::string text;
  for (const auto& [call, count] : failures_) {
    if (!text.empty()) text.append(", ");
    text.append(call).append(" ").append(std::to_string(count));
  }
  return text;
}

}  // namespace proton::cupti
