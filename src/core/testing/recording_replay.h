// Replays a PROTON_RECORD recording (profiler.md §5.15) for tests: API calls run on one thread
// per recorded thread, strictly in recorded order; backend events go to the core's sink;
// sessions run on the fake backend with the recorded device properties.
#pragma once

#include <functional>
#include <string>

#include "util/status.h"

namespace proton::test {

// `rename` maps a recorded session name to the name used in the replay (e.g. another dir).
Status ReplayRecording(const std::string& jsonl,
                       const std::function<std::string(const std::string&)>& rename);

}  // namespace proton::test
