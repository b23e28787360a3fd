// See trace_reader.h.
#include "viewer/traces/trace_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "format/sniff.h"
#include "viewer/traces/json_trace_reader.h"
#include "viewer/traces/perfetto_trace_reader.h"

namespace proton::viewer::traces {

TraceFileKind SniffTrace(std::string_view head) {
  std::string_view s = head;
  if (s.starts_with("\xef\xbb\xbf")) s.remove_prefix(3);
  const size_t text = s.find_first_not_of(" \t\r\n");
  // JSON text: a document starts with '{' or '['. A Perfetto trace never does, even after
  // bytes that look like whitespace: its records start with 0x0a and a length, and '{' and
  // '[' would be group tags, which Perfetto's messages do not use.
  if (text == std::string_view::npos) return TraceFileKind::kChromeJson;  // empty: no events
  if (s[text] == '{' || s[text] == '[') return TraceFileKind::kChromeJson;
  if (head[0] == '\x0a') return TraceFileKind::kPerfetto;
  if (format::IsMsgpackArrayMarker(static_cast<unsigned char>(head[0]))) {
    return TraceFileKind::kTreeProfile;
  }
  return TraceFileKind::kNeither;
}

Status ReadTrace(TraceInput& input, TraceVisitor& visitor) {
  const std::string_view head(input.begin(), static_cast<size_t>(input.end() - input.begin()));
  switch (SniffTrace(head)) {
    case TraceFileKind::kChromeJson: return ReadChromeTrace(input, visitor);
    case TraceFileKind::kPerfetto: return ReadPerfettoTrace(input, visitor);
    case TraceFileKind::kTreeProfile:
      return Status::Error("'" + input.name() + "' is a Proton tree profile, not a trace");
    case TraceFileKind::kNeither: break;
  }
  return Status::Error("cannot read '" + input.name() +
                       "': not a Chrome (JSON) or Perfetto (protobuf) trace");
}

Status ReadTraceFile(std::string_view path, TraceVisitor& visitor) {
  PROTON_ASSIGN_OR_RETURN(std::unique_ptr<TraceInput> input, TraceInput::Open(path));
  return ReadTrace(*input, visitor);
}

std::optional<TraceFileKind> SniffTraceFile(std::string_view path) {
  if (path == "-") return std::nullopt;
  const int fd = ::open(std::string(path).c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  char head[256];
  ssize_t got = -1;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) got = ::pread(fd, head, sizeof head, 0);
  ::close(fd);
  if (got < 0) return std::nullopt;
  return SniffTrace(std::string_view(head, static_cast<size_t>(got)));
}

}  // namespace proton::viewer::traces
