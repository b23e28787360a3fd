// See json_trace_event.h.
#include "viewer/traces/json_trace_event.h"

namespace proton::viewer::traces {

#define PROTON_SCAN_(expr)                                                 \
  do {                                                                     \
    if (Scan proton_s_ = (expr); proton_s_ != Scan::kOk) return proton_s_; \
  } while (0)

void JsonEvent::Clear() {
  static_cast<JsonEventFields&>(*this) = JsonEventFields();
  call_stack.clear();
  metrics.clear();
}

template <class FieldFn>
Scan JsonEventParser::Members(const char*& p, FieldFn&& field) {
  PROTON_SCAN_(scan_.Expect(p, '{', "(an object)"));
  PROTON_SCAN_(scan_.SkipSpace(p));
  if (*p == '}') {
    ++p;
    return Scan::kOk;
  }
  for (;;) {
    PROTON_SCAN_(scan_.SkipSpace(p));
    if (*p != '"') return scan_.Fail(p, "expected a key");
    std::string_view key;
    PROTON_SCAN_(scan_.String(p, key, arena_));
    PROTON_SCAN_(scan_.Expect(p, ':', "after a key"));
    PROTON_SCAN_(scan_.SkipSpace(p));
    PROTON_SCAN_(field(p, key));
    PROTON_SCAN_(scan_.SkipSpace(p));
    if (*p == '}') {
      ++p;
      return Scan::kOk;
    }
    if (*p != ',') return scan_.Fail(p, "expected ',' or '}'");
    ++p;
  }
}

Scan JsonEventParser::Parse(const char*& p, JsonEvent& event) {
  const char* q = p;
  event.Clear();
  PROTON_SCAN_(scan_.SkipSpace(q));
  if (*q != '{') return scan_.Fail(q, "expected an event object");
  PROTON_SCAN_(
      Members(q, [&](const char*& at, std::string_view key) { return Field(at, key, event); }));
  p = q;
  return Scan::kOk;
}

Scan JsonEventParser::StringField(const char*& p, std::string_view& out) {
  if (*p != '"') return scan_.SkipValue(p);  // not a string: as if absent
  return scan_.String(p, out, arena_);
}

Scan JsonEventParser::NumberField(const char*& p, std::string_view& out, const char* what) {
  if (*p != '-' && (*p < '0' || *p > '9') && *p != 'N' && *p != 'I') {
    if (p == scan_.end()) return Scan::kMore;
    return scan_.Fail(p, std::string("\"") + what + "\" is not a number");
  }
  return scan_.Number(p, out);
}

Scan JsonEventParser::IdField(const char*& p, JsonEvent& event) {
  event.id_is_string = *p == '"';
  if (event.id_is_string) return scan_.String(p, event.id, arena_);
  return NumberField(p, event.id, "id");
}

namespace {

// key == literal, byte by byte over a constant length, which the compiler unrolls into a few
// loads and compares (keys are compared for every member of every event; a memcmp call each
// was 5% of a merge).
template <size_t kN>
bool KeyIs(std::string_view key, const char (&literal)[kN]) {
  if (key.size() != kN - 1) return false;
  bool same = true;
  for (size_t i = 0; i + 1 < kN; ++i) same &= key[i] == literal[i];
  return same;
}

}  // namespace

Scan JsonEventParser::Field(const char*& p, std::string_view key, JsonEvent& event) {
  switch (key.size()) {
    case 2:
      if (KeyIs(key, "ph")) return StringField(p, event.ph);
      if (KeyIs(key, "ts")) return NumberField(p, event.ts, "ts");
      if (KeyIs(key, "id")) return IdField(p, event);
      if (KeyIs(key, "bp")) return StringField(p, event.bp);
      break;
    case 3:
      if (KeyIs(key, "cat")) return StringField(p, event.cat);
      if (KeyIs(key, "dur")) return NumberField(p, event.dur, "dur");
      if (KeyIs(key, "tid")) return NumberField(p, event.tid, "tid");
      if (KeyIs(key, "pid")) return NumberField(p, event.pid, "pid");
      break;
    case 4:
      if (KeyIs(key, "name")) return StringField(p, event.name);
      if (KeyIs(key, "args")) return *p == '{' ? Args(p, event) : scan_.SkipValue(p);
      break;
    case 5:
    case 8:
      event.tree_node = event.tree_node || KeyIs(key, "frame") || KeyIs(key, "children");
      break;
    default: break;
  }
  return scan_.SkipValue(p);
}

Scan JsonEventParser::Args(const char*& p, JsonEvent& event) {
  return Members(p,
                 [&](const char*& at, std::string_view key) { return ArgsField(at, key, event); });
}

Scan JsonEventParser::ArgsField(const char*& p, std::string_view key, JsonEvent& event) {
  if (KeyIs(key, "call_stack") && *p == '[') return CallStack(p, event);
  if (KeyIs(key, "metrics") && *p == '{') return Metrics(p, event);
  if (KeyIs(key, "name") && *p == '"') return scan_.String(p, event.args_name, arena_);
  return scan_.SkipValue(p);
}

// An array of frame names; other values are checked and left out.
Scan JsonEventParser::CallStack(const char*& p, JsonEvent& event) {
  ++p;  // '['
  PROTON_SCAN_(scan_.SkipSpace(p));
  if (*p == ']') {
    ++p;
    return Scan::kOk;
  }
  for (;;) {
    PROTON_SCAN_(scan_.SkipSpace(p));
    if (*p == '"') {
      std::string_view frame;
      PROTON_SCAN_(scan_.String(p, frame, arena_));
      event.call_stack.push_back(frame);
    } else {
      PROTON_SCAN_(scan_.SkipValue(p));
    }
    PROTON_SCAN_(scan_.SkipSpace(p));
    if (*p == ']') {
      ++p;
      return Scan::kOk;
    }
    if (*p != ',') return scan_.Fail(p, "expected ',' or ']'");
    ++p;
  }
}

Scan JsonEventParser::Metrics(const char*& p, JsonEvent& event) {
  return Members(p, [&](const char*& at, std::string_view key) {
    Metric m;
    m.name = key;
    bool keep = true;
    PROTON_SCAN_(MetricValue(at, m, keep));
    if (keep) event.metrics.push_back(m);
    return Scan::kOk;
  });
}

// A number (an integer stays exact), a string, a boolean (1 or 0), or an array or object
// (kept as its JSON text); null is left out.
Scan JsonEventParser::MetricValue(const char*& p, Metric& m, bool& keep) {
  const char c = *p;
  if (c == '"') {
    m.type = Metric::Type::kString;
    return scan_.String(p, m.text, arena_);
  }
  if (c == '[' || c == '{') {
    m.type = Metric::Type::kString;
    return scan_.SkipValue(p, &m.text);
  }
  if (c == 't' || c == 'f' || c == 'n') {
    int value = 0;
    PROTON_SCAN_(scan_.Literal(p, value));
    keep = value >= 0;
    m.int_value = value;
    return Scan::kOk;
  }
  std::string_view token;
  PROTON_SCAN_(NumberField(p, token, "metric"));
  if (IsIntegerToken(token) && TokenToInt64(token, m.int_value)) {
    m.type = Metric::Type::kInt;
  } else if (IsIntegerToken(token) && TokenToUint64(token, m.uint_value)) {
    m.type = Metric::Type::kUint;
  } else {
    m.type = Metric::Type::kDouble;
    m.double_value = TokenToDouble(token);
  }
  return Scan::kOk;
}

}  // namespace proton::viewer::traces
