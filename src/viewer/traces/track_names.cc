// See track_names.h.
#include "viewer/traces/track_names.h"

#include <charconv>

namespace proton::viewer::traces {
namespace {

// Consumes `prefix` from the front of `s`.
bool Take(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

// Consumes a non-negative decimal integer from the front of `s`.
bool TakeNumber(std::string_view& s, int64_t& value) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end == s.data() || value < 0) return false;
  s.remove_prefix(static_cast<size_t>(end - s.data()));
  return true;
}

// "[<device> ]Stream <id>", the whole rest of the name.
bool TakeStream(std::string_view s, TrackIdentity& out) {
  if (!s.empty() && s[0] >= '0' && s[0] <= '9') {
    if (!TakeNumber(s, out.device) || !Take(s, " ")) return false;
  }
  return Take(s, "Stream ") && TakeNumber(s, out.id) && s.empty();
}

}  // namespace

TrackIdentity IdentifyTrackName(std::string_view name) {
  TrackIdentity out;
  std::string_view s = name;
  if (Take(s, "CPU Thread ")) {
    if (TakeNumber(s, out.id) && s.empty()) out.kind = TrackKind::kCpuThread;
  } else if (Take(s, "Graph: ")) {
    // "Graph: Stream <id>", "Graph: GPU <device> Stream <id>"
    if (s.starts_with("Stream ") ? TakeStream(s, out) : Take(s, "GPU ") && TakeStream(s, out)) {
      out.kind = TrackKind::kGraphStream;
    }
  } else if (Take(s, "GPU ") && TakeStream(s, out)) {  // "GPU [<device> ]Stream <id>"
    out.kind = TrackKind::kGpuStream;
  }
  if (out.kind == TrackKind::kOther) out = TrackIdentity();
  return out;
}

std::string DefaultTrackName(TrackKind kind, int64_t id) {
  switch (kind) {
    case TrackKind::kCpuThread: return "CPU Thread " + std::to_string(id);
    case TrackKind::kGpuStream: return "GPU Stream " + std::to_string(id);
    case TrackKind::kGraphStream: return "Graph: Stream " + std::to_string(id);
    case TrackKind::kOther: break;
  }
  return "Thread " + std::to_string(id);
}

}  // namespace proton::viewer::traces
