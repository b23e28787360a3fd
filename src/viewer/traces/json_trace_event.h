// One Chrome trace event object (formats.md §4.2, §4.4, §6), parsed in place from the reader's
// window: the fields the event model needs, every other key checked and skipped.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "viewer/traces/json_scan.h"
#include "viewer/traces/trace_model.h"

namespace proton::viewer::traces {

// The scalar fields, reset as one block per event.
struct JsonEventFields {
  std::string_view name, cat, ph, bp;
  std::string_view ts, dur;    // number tokens ("" when absent)
  std::string_view pid, tid;   // integer tokens ("" when absent)
  std::string_view id;         // a number token or a string (id_is_string)
  std::string_view args_name;  // args.name (metadata events)
  bool id_is_string = false;
  // A key only a tree profile's node has ("children", "frame"): the document is a .hatchet.
  bool tree_node = false;
};

struct JsonEvent : JsonEventFields {
  std::vector<std::string_view> call_stack;
  std::vector<Metric> metrics;

  void Clear();
};

class JsonEventParser {
 public:
  explicit JsonEventParser(JsonScanner& scanner) : scan_(scanner) {}
  // The object at p (after whitespace) into `event`; p past it on kOk.
  Scan Parse(const char*& p, JsonEvent& event);
  void ResetArena() { arena_.Reset(); }

 private:
  Scan Field(const char*& p, std::string_view key, JsonEvent& event);
  Scan StringField(const char*& p, std::string_view& out);
  Scan NumberField(const char*& p, std::string_view& out, const char* what);
  Scan IdField(const char*& p, JsonEvent& event);
  Scan Args(const char*& p, JsonEvent& event);
  Scan ArgsField(const char*& p, std::string_view key, JsonEvent& event);
  Scan CallStack(const char*& p, JsonEvent& event);
  Scan Metrics(const char*& p, JsonEvent& event);
  Scan MetricValue(const char*& p, Metric& metric, bool& keep);
  // `fields`: an object's members, each handed to `field(p, key)` after the ':'.
  template <class FieldFn>
  Scan Members(const char*& p, FieldFn&& field);

  JsonScanner& scan_;
  StringArena arena_;
};

}  // namespace proton::viewer::traces
