// The simdjson On-Demand backend of the JSON profile reader (viewer.md §3.1, §3.2; formats.md
// §2; step 2 of json_reader.h's rule): no DOM, the tree is built while the document is walked
// with an explicit stack of object/array iterators (On-Demand's own depth is a counter, so
// 200,000+ nested containers work). Scalars are classified from their raw token, which gives
// the bare NaN/Infinity/-Infinity extension, exact int64-vs-double decisions, and names/keys
// viewed in place when they hold no escape (no copy into simdjson's string buffer, which
// keeps peak memory low).
#include "format/json_simdjson_reader.h"

#include <simdjson.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "format/json_reader.h"
#include "format/reader_common.h"

namespace proton::format {

namespace od = simdjson::ondemand;
using tree::NodeId;
using tree::ProfileTree;
using tree::ValueType;

namespace {

// On-Demand 3.0 has no document::at_end(): past the last token, current_location() reports
// OUT_OF_BOUNDS.
bool AtEnd(od::document& doc) { return doc.current_location().error() == simdjson::OUT_OF_BOUNDS; }

class JsonTreeReader {
 public:
  explicit JsonTreeReader(ProfileTree& tree) : tree_(tree) {}

  ReadFail Run(od::document& doc);

 private:
  struct Level {
    od::object_iterator it, end;
    od::array_iterator kids, kids_end;
    NodeId id;
    bool in_children = false;
    bool child_pending = false;  // kids points at a child that has been read
    bool has_frame = false;
  };

  ReadFail BeginNode(od::value v, NodeId parent);
  ReadFail Walk();
  ReadFail ReadFrame(od::value v, NodeId n);
  ReadFail ReadMetrics(od::value v, NodeId n);
  ReadFail ReadDevices(od::value v);
  // Key of a field without copying when it holds no escape.
  static bool Key(od::field& f, std::string_view& key);
  // A string value; `tok` is its raw token.
  static bool StringOf(od::value& v, std::string_view tok, std::string_view& out);
  static std::string_view Token(od::value& v) { return TrimRightJsonSpace(v.raw_json_token()); }

  ProfileTree& tree_;
  std::vector<Level> stack_;
};

bool JsonTreeReader::Key(od::field& f, std::string_view& key) {
  const char* raw = f.key().raw();
  for (const char* p = raw;; ++p) {
    if (*p == '"') {
      key = std::string_view(raw, static_cast<size_t>(p - raw));
      return true;
    }
    if (*p == '\\') break;
  }
  return !f.unescaped_key().get(key);
}

bool JsonTreeReader::StringOf(od::value& v, std::string_view tok, std::string_view& out) {
  if (tok.size() < 2 || tok.front() != '"' || tok.back() != '"') return false;
  std::string_view inner = tok.substr(1, tok.size() - 2);
  if (inner.find('\\') == std::string_view::npos) {
    out = inner;
    return true;
  }
  return !v.get_string().get(out);
}

ReadFail JsonTreeReader::BeginNode(od::value v, NodeId parent) {
  const std::string_view tok = Token(v);
  if (tok.empty()) return ReadFail::kRead;
  if (tok[0] != '{') return ReadFail::kShape;
  od::object obj;
  if (v.get_object().get(obj)) return ReadFail::kRead;
  Level l;
  if (obj.begin().get(l.it) || obj.end().get(l.end)) return ReadFail::kRead;
  l.id = tree_.AddNode(parent);
  stack_.push_back(l);
  return ReadFail::kNone;
}

ReadFail JsonTreeReader::Walk() {
  while (!stack_.empty()) {
    Level& l = stack_.back();
    if (l.in_children) {
      if (l.child_pending) {
        ++l.kids;
        l.child_pending = false;
      }
      if (l.kids != l.kids_end) {
        od::value v;
        if ((*l.kids).get(v)) return ReadFail::kRead;
        l.child_pending = true;
        const NodeId id = l.id;  // l is invalidated by the push below
        PROTON_READ_TRY(BeginNode(v, id));
        continue;
      }
      l.in_children = false;
      ++l.it;
      continue;
    }
    if (!(l.it != l.end)) {
      if (!l.has_frame) return ReadFail::kShape;
      stack_.pop_back();
      continue;
    }
    od::field f;
    if ((*l.it).get(f)) return ReadFail::kRead;
    std::string_view key;
    if (!Key(f, key)) return ReadFail::kRead;
    if (key == "children") {
      od::value v = f.value();
      const std::string_view tok = Token(v);
      if (tok.empty()) return ReadFail::kRead;
      if (tok[0] != '[') return ReadFail::kShape;
      od::array arr;
      if (v.get_array().get(arr) || arr.begin().get(l.kids) || arr.end().get(l.kids_end))
        return ReadFail::kRead;
      l.in_children = true;
      l.child_pending = false;
      continue;  // the field iterator advances once the children are done
    }
    if (key == "frame") {
      PROTON_READ_TRY(ReadFrame(f.value(), l.id));
      l.has_frame = true;
    } else if (key == "metrics") {
      PROTON_READ_TRY(ReadMetrics(f.value(), l.id));
    }
    ++l.it;
  }
  return ReadFail::kNone;
}

ReadFail JsonTreeReader::ReadFrame(od::value v, NodeId n) {
  std::string_view tok = Token(v);
  if (tok.empty()) return ReadFail::kRead;
  if (tok[0] != '{') return ReadFail::kShape;
  od::object obj;
  if (v.get_object().get(obj)) return ReadFail::kRead;
  // Views into the input or simdjson's string buffer: both outlive this call.
  std::string_view name, type = "None";
  bool has_name = false;
  for (auto fr : obj) {
    od::field f;
    if (std::move(fr).get(f)) return ReadFail::kRead;
    std::string_view key;
    if (!Key(f, key)) return ReadFail::kRead;
    const bool is_name = key == "name";
    if (!is_name && key != "type") continue;
    od::value fv = f.value();
    tok = Token(fv);
    if (tok.empty()) return ReadFail::kRead;
    std::string_view s;
    if (!is_name && tok == "null") {
      type = "None";
      continue;
    }
    if (tok[0] != '"') return ReadFail::kShape;
    if (!StringOf(fv, tok, s)) return ReadFail::kRead;
    if (is_name) {
      name = s;
      has_name = true;
    } else {
      type = s;
    }
  }
  if (!has_name) return ReadFail::kShape;
  tree_.SetFrame(n, name, type);
  return ReadFail::kNone;
}

ReadFail JsonTreeReader::ReadMetrics(od::value v, NodeId n) {
  std::string_view tok = Token(v);
  if (tok.empty()) return ReadFail::kRead;
  if (tok[0] != '{') return ReadFail::kShape;
  od::object obj;
  if (v.get_object().get(obj)) return ReadFail::kRead;
  for (auto fr : obj) {
    od::field f;
    if (std::move(fr).get(f)) return ReadFail::kRead;
    std::string_view key;
    if (!Key(f, key)) return ReadFail::kRead;
    // An unescaped key lives in simdjson's string buffer, which only grows during a
    // document, so the view stays valid while the value is read.
    od::value fv = f.value();
    tok = Token(fv);
    if (tok.empty()) return ReadFail::kRead;
    switch (tok[0]) {
      case '"': {
        std::string_view s;
        if (!StringOf(fv, tok, s)) return ReadFail::kRead;
        tree_.SetString(n, key, s);
        break;
      }
      case '[': tree_.SetOther(n, key, ValueType::kArray); break;  // skipped by the iterator
      case '{': tree_.SetOther(n, key, ValueType::kObject); break;
      default: {
        const TokenValue t = ClassifyJsonToken(tok);
        if (t.type == ValueType::kAbsent) return ReadFail::kRead;
        SetTokenValue(tree_, n, key, t);
      }
    }
  }
  return ReadFail::kNone;
}

ReadFail JsonTreeReader::ReadDevices(od::value v) {
  std::string_view tok = Token(v);
  if (tok.empty()) return ReadFail::kRead;
  if (tok[0] != '{') return ReadFail::kShape;
  od::object types;
  if (v.get_object().get(types)) return ReadFail::kRead;
  for (auto tr : types) {
    od::field tf;
    if (std::move(tr).get(tf)) return ReadFail::kRead;
    std::string_view tkey;
    if (!Key(tf, tkey)) return ReadFail::kRead;
    const std::string device_type(tkey);
    od::value tv = tf.value();
    tok = Token(tv);
    if (tok.empty()) return ReadFail::kRead;
    if (tok[0] != '{') return ReadFail::kShape;
    od::object devices;
    if (tv.get_object().get(devices)) return ReadFail::kRead;
    for (auto dr : devices) {
      od::field df;
      if (std::move(dr).get(df)) return ReadFail::kRead;
      std::string_view dkey;
      if (!Key(df, dkey)) return ReadFail::kRead;
      const std::string index(dkey);
      od::value dv = df.value();
      tok = Token(dv);
      if (tok.empty()) return ReadFail::kRead;
      if (tok[0] != '{') return ReadFail::kShape;
      od::object fields;
      if (dv.get_object().get(fields)) return ReadFail::kRead;
      tree::DeviceInfo info;
      for (auto fr : fields) {
        od::field ff;
        if (std::move(fr).get(ff)) return ReadFail::kRead;
        std::string_view fkey;
        if (!Key(ff, fkey)) return ReadFail::kRead;
        const std::string field_name(fkey);
        od::value fv = ff.value();
        tok = Token(fv);
        if (tok.empty()) return ReadFail::kRead;
        if (tok[0] == '[' || tok[0] == '{') continue;  // wrong type: the field is not present
        TokenValue t;
        if (tok[0] == '"') {
          if (!StringOf(fv, tok, t.text)) return ReadFail::kRead;
          t.type = ValueType::kString;
        } else {
          t = ClassifyJsonToken(tok);
          if (t.type == ValueType::kAbsent) return ReadFail::kRead;
        }
        SetDeviceField(info, field_name, t);
      }
      AddDevice(tree_.mutable_devices(), device_type, index, std::move(info));
    }
  }
  return ReadFail::kNone;
}

ReadFail JsonTreeReader::Run(od::document& doc) {
  od::array top;
  if (doc.get_array().get(top)) return ReadFail::kRead;
  size_t index = 0;
  for (auto er : top) {
    od::value e;
    // simdjson_result::get is &&-qualified: the move picks it, though the type is trivial.
    // NOLINTNEXTLINE(performance-move-const-arg)
    if (std::move(er).get(e)) return ReadFail::kRead;
    if (index == 0) {
      PROTON_READ_TRY(BeginNode(e, tree::kNoNode));
      PROTON_READ_TRY(Walk());
    } else if (index == 1) {
      PROTON_READ_TRY(ReadDevices(e));
    } else {
      return ReadFail::kShape;  // more than two elements (§10, item 13)
    }
    ++index;
  }
  if (index == 0) return ReadFail::kShape;
  if (!AtEnd(doc)) return ReadFail::kRead;
  return ReadFail::kNone;
}

// An object or array being walked by WellFormed.
struct OpenContainer {
  bool is_object;
  od::object_iterator object_at, object_end;
  od::array_iterator array_at, array_end;
  bool pending = false;  // the element at *_at was entered; step past it first
};

// Checks a scalar, or pushes an object or array for WellFormed's loop to walk.
bool EnterValue(od::value& value, std::vector<OpenContainer>& stack) {
  const std::string_view token = TrimRightJsonSpace(value.raw_json_token());
  if (token.empty()) return false;
  if (token[0] == '{') {
    od::object object;
    OpenContainer open{true, {}, {}, {}, {}};
    if (value.get_object().get(object) || object.begin().get(open.object_at) ||
        object.end().get(open.object_end)) {
      return false;
    }
    stack.push_back(open);
    return true;
  }
  if (token[0] == '[') {
    od::array array;
    OpenContainer open{false, {}, {}, {}, {}};
    if (value.get_array().get(array) || array.begin().get(open.array_at) ||
        array.end().get(open.array_end)) {
      return false;
    }
    stack.push_back(open);
    return true;
  }
  if (token[0] == '"') {
    std::string_view text;
    return !value.get_string().get(text);
  }
  return ClassifyJsonToken(token).type != ValueType::kAbsent;
}

enum class NextElement { kValue, kEnd, kError };

// Steps `open` to its next element (an object's field value, its key checked on the way).
NextElement NextValue(OpenContainer& open, od::value& value) {
  if (open.pending) {
    if (open.is_object)
      ++open.object_at;
    else
      ++open.array_at;
    open.pending = false;
  }
  if (open.is_object) {
    if (!(open.object_at != open.object_end)) return NextElement::kEnd;
    od::field field;
    if ((*open.object_at).get(field)) return NextElement::kError;
    std::string_view key;
    if (field.unescaped_key().get(key)) return NextElement::kError;
    value = field.value();
  } else {
    if (!(open.array_at != open.array_end)) return NextElement::kEnd;
    if ((*open.array_at).get(value)) return NextElement::kError;
  }
  open.pending = true;
  return NextElement::kValue;
}

// Whether `value` is well-formed JSON (with the NaN/Infinity extension), walked with an
// explicit stack. On-Demand skips what the tree does not use without looking at its scalars
// (`[1!]` as a vector metric), so the readers check the whole document with it once they are
// done: a damaged file is refused as unreadable, never read in part, and the same documents
// are refused as by the fast path and the streaming reader, which check every byte.
bool WellFormedValue(od::value value) {
  std::vector<OpenContainer> stack;
  if (!EnterValue(value, stack)) return false;
  while (!stack.empty()) {
    od::value next;
    switch (NextValue(stack.back(), next)) {
      case NextElement::kEnd: stack.pop_back(); continue;
      case NextElement::kError: return false;
      case NextElement::kValue: break;
    }
    if (!EnterValue(next, stack)) return false;
  }
  return true;
}

bool WellFormed(od::document& doc) {
  od::value root;
  if (doc.get_value().get(root)) return false;
  return WellFormedValue(root) && AtEnd(doc);
}

ReadFail ChromeOrShape(od::document& doc) {
  // A document that is (or, for JSON lines, starts with) an object with traceEvents.
  od::object obj;
  if (doc.get_object().get(obj)) return ReadFail::kRead;
  for (auto fr : obj) {
    od::field f;
    if (std::move(fr).get(f)) return ReadFail::kRead;
    std::string_view key;
    if (f.unescaped_key().get(key)) return ReadFail::kRead;
    if (key == "traceEvents") return ReadFail::kChrome;
    if (!WellFormedValue(f.value())) return ReadFail::kRead;
  }
  return AtEnd(doc) ? ReadFail::kShape : ReadFail::kRead;
}

}  // namespace

bool ParseJsonSimdjson(const char* data, size_t size, size_t capacity, bool object,
                       ProfileTree& tree, ReadFail& fail) {
  od::parser parser;
  const size_t max_depth = std::min<size_t>(size / 2 + 1024, size_t{1} << 24);
  // simdjson's index takes about 6 bytes per byte of input.
  if (parser.allocate(size, max_depth)) return false;
  od::document doc;
  if (parser.iterate(data, size, capacity).get(doc)) return fail = ReadFail::kRead, true;
  if (object) return fail = ChromeOrShape(doc), true;
  ReserveForJson(tree, size);
  {
    JsonTreeReader reader(tree);
    fail = reader.Run(doc);
  }
  if (fail == ReadFail::kShape || fail == ReadFail::kNone) {
    od::document again;
    if (parser.iterate(data, size, capacity).get(again) || !WellFormed(again))
      fail = ReadFail::kRead;
  }
  return true;
}

}  // namespace proton::format
