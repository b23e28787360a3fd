// PROTON_RECORD (profiler.md §5.15): a JSON-lines recording of every core input of this
// process (API calls with thread ids, backend callbacks, kernel records with buffer
// boundaries, device properties), so a GPU run can be replayed without a GPU. Off (one
// relaxed load per call) unless PROTON_RECORD names a file.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/backend/backend.h"
#include "core/hot_flags.h"
#include "proton/proton.h"

namespace proton {

class RecordLine;

// Whether a recording is being written. Inline: every scope enter and exit asks.
bool RecordingDecideOnce();
inline bool Recording() {
  int state = g_hot.recording.load(std::memory_order_relaxed);
  if (state >= 0) [[likely]]
    return state == 1;
  return RecordingDecideOnce();
}
// Starts recording to `path` ("" stops); tests use it, PROTON_RECORD does it at first use.
void SetRecordPath(const std::string& path);

// Builds one line: {"ev":<event>,"tid":<thread>, ...}. Written when destroyed.
class RecordLine {
 public:
  explicit RecordLine(std::string_view event);
  ~RecordLine();
  RecordLine& Int(std::string_view key, int64_t v);
  RecordLine& Uint(std::string_view key, uint64_t v);
  RecordLine& Str(std::string_view key, std::string_view v);
  RecordLine& OptInt(std::string_view key, std::optional<int> v);
  RecordLine& Bool(std::string_view key, bool v);
  RecordLine& MetricList(std::string_view key, const Metrics& metrics);

 private:
  void Key(std::string_view key);  // ,"key":
  std::string line_;
};

void RecordDevice(uint32_t id, const DeviceInfo& info);

}  // namespace proton
