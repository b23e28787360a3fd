// See json_trace_reader.h. Two layers: the document's grammar as a state machine over items
// (a top-level key and its value, one event with the separator before it), each parsed whole
// from its start or not at all, so that an item cut by the window's end is parsed again
// after a refill; and the events' meaning (chrome_event_sink.h).
#include "viewer/traces/json_trace_reader.h"

#include <string>

#include "viewer/traces/chrome_event_sink.h"
#include "viewer/traces/json_scan.h"
#include "viewer/traces/json_trace_event.h"

namespace proton::viewer::traces {
namespace {

#define PROTON_SCAN_(expr)                                                 \
  do {                                                                     \
    if (Scan proton_s_ = (expr); proton_s_ != Scan::kOk) return proton_s_; \
  } while (0)

enum class State : uint8_t {
  kDocument,       // before a top-level value (or the end of the file)
  kFirstKey,       // after the document's '{'
  kNextKey,        // after a ',' between top-level members
  kAfterMember,    // after a top-level member's value
  kFirstEvent,     // after traceEvents' (or a list document's) '['
  kNextEvent,      // after an event
  kAfterDocument,  // after a document's closing bracket
  kDone,
};

class ChromeTraceReader {
 public:
  ChromeTraceReader(TraceInput& input, TraceVisitor& visitor)
      : input_(input), sink_(input.name(), visitor), events_(scan_) {}

  Status Run();

 private:
  Scan Step(const char*& p);
  Scan DocumentStart(const char*& p);
  Scan Member(const char*& p);
  Scan MemberValue(const char*& p, std::string_view key);
  Scan AfterMember(const char*& p);
  Scan Event(const char*& p);
  Scan AfterDocument(const char*& p);
  Error JsonError() const;
  bool EndAllowed() const { return state_ == State::kDocument || state_ == State::kAfterDocument; }

  TraceInput& input_;
  ChromeEventSink sink_;
  JsonScanner scan_;
  JsonEventParser events_;
  JsonEvent event_;
  StringArena keys_;
  State state_ = State::kDocument;
  bool list_document_ = false;  // the document is a bare list of events
};

Status ChromeTraceReader::Run() {
  const char* pos = input_.begin();
  scan_.SetEnd(input_.end());
  while (state_ != State::kDone) {
    const char* p = pos;
    events_.ResetArena();
    keys_.Reset();
    const Scan s = Step(p);
    if (s == Scan::kOk) {
      pos = p;
      continue;
    }
    if (s == Scan::kError) {
      if (!sink_.status().ok()) return sink_.status();
      return JsonError();
    }
    const uint64_t offset = input_.Offset(pos);
    PROTON_ASSIGN_OR_RETURN(const bool more, input_.Refill(pos));
    scan_.SetEnd(input_.end());
    if (more) continue;
    if (EndAllowed()) break;
    return Status::Error("cannot read '" + input_.name() +
                         "': the trace ends early (truncated after byte " + std::to_string(offset) +
                         ")");
  }
  return sink_.Finish();
}

Error ChromeTraceReader::JsonError() const {
  return Status::Error("cannot read '" + input_.name() + "': invalid JSON at byte " +
                       std::to_string(input_.Offset(scan_.error_at())) + ": " + scan_.error());
}

Scan ChromeTraceReader::Step(const char*& p) {
  switch (state_) {
    case State::kDocument: return DocumentStart(p);
    case State::kFirstKey:
    case State::kNextKey: return Member(p);
    case State::kAfterMember: return AfterMember(p);
    case State::kFirstEvent:
    case State::kNextEvent: return Event(p);
    case State::kAfterDocument: return AfterDocument(p);
    case State::kDone: break;
  }
  return Scan::kOk;
}

Scan ChromeTraceReader::DocumentStart(const char*& p) {
  // A UTF-8 byte-order mark may precede the first document.
  if (input_.Offset(p) == 0 && static_cast<unsigned char>(p[0]) == 0xef) {
    if (scan_.end() - p < 3) return Scan::kMore;
    if (static_cast<unsigned char>(p[1]) == 0xbb && static_cast<unsigned char>(p[2]) == 0xbf) {
      p += 3;
    }
  }
  PROTON_SCAN_(scan_.SkipSpace(p));
  if (*p != '{' && *p != '[') return scan_.Fail(p, "expected a trace object or a list of events");
  list_document_ = *p == '[';
  state_ = list_document_ ? State::kFirstEvent : State::kFirstKey;
  ++p;
  return Scan::kOk;
}

Scan ChromeTraceReader::Member(const char*& p) {
  PROTON_SCAN_(scan_.SkipSpace(p));
  if (state_ == State::kFirstKey && *p == '}') {
    ++p;
    state_ = State::kAfterDocument;
    return sink_.EndDocument() ? Scan::kOk : Scan::kError;
  }
  if (*p != '"') return scan_.Fail(p, "expected a key");
  std::string_view key;
  PROTON_SCAN_(scan_.String(p, key, keys_));
  PROTON_SCAN_(scan_.Expect(p, ':', "after a key"));
  PROTON_SCAN_(scan_.SkipSpace(p));
  return MemberValue(p, key);
}

Scan ChromeTraceReader::MemberValue(const char*& p, std::string_view key) {
  if (key == "traceEvents") {
    if (*p != '[') return scan_.Fail(p, "traceEvents is not a list");
    ++p;
    state_ = State::kFirstEvent;
    return Scan::kOk;
  }
  if (key == "baseTimeNanoseconds" && *p != '"' && *p != '{' && *p != '[') {
    std::string_view token;
    PROTON_SCAN_(scan_.Number(p, token));
    int64_t base = 0;
    if (!TokenToInt64(token, base)) return scan_.Fail(p, "baseTimeNanoseconds is not an integer");
    sink_.SetBaseTime(base);
  } else {
    PROTON_SCAN_(scan_.SkipValue(p));
  }
  state_ = State::kAfterMember;
  return Scan::kOk;
}

Scan ChromeTraceReader::AfterMember(const char*& p) {
  PROTON_SCAN_(scan_.SkipSpace(p));
  if (*p == ',') {
    ++p;
    state_ = State::kNextKey;
    return Scan::kOk;
  }
  if (*p != '}') return scan_.Fail(p, "expected ',' or '}'");
  ++p;
  state_ = State::kAfterDocument;
  return sink_.EndDocument() ? Scan::kOk : Scan::kError;
}

Scan ChromeTraceReader::Event(const char*& p) {
  PROTON_SCAN_(scan_.SkipSpace(p));
  if (*p == ']') {
    ++p;
    state_ = list_document_ ? State::kAfterDocument : State::kAfterMember;
    if (list_document_ && !sink_.EndDocument()) return Scan::kError;
    return Scan::kOk;
  }
  if (state_ == State::kNextEvent) {
    if (*p != ',') return scan_.Fail(p, "expected ',' or ']'");
    ++p;
  }
  PROTON_SCAN_(events_.Parse(p, event_));
  state_ = State::kNextEvent;
  return sink_.Take(event_) ? Scan::kOk : Scan::kError;
}

Scan ChromeTraceReader::AfterDocument(const char*& p) {
  // Triton 3.6 writes one document per line (one per stream): another may follow.
  PROTON_SCAN_(scan_.SkipSpace(p));
  state_ = State::kDocument;
  return Scan::kOk;
}

}  // namespace

Status ReadChromeTrace(TraceInput& input, TraceVisitor& visitor) {
  ChromeTraceReader reader(input, visitor);
  return reader.Run();
}

}  // namespace proton::viewer::traces
