// The streaming JSON profile reader (see json_stream_reader.h). RapidJSON validates the
// syntax, strings (escapes, UTF-8) and nesting; StreamTreeBuilder turns its events into the
// builder calls JsonTreeReader (json_simdjson_reader.cc) makes for the same document, in the same
// order, with a stack of contexts instead of recursion. Results agree with the simdjson
// reader's, which json_stream_reader_test.cc checks on every sample and corpus file:
//   * a shape error (viewer.md §9.2 "not a Proton tree profile") is only reported once the
//     rest of the document proved well-formed, as json_simdjson_reader.cc's WellFormed decides;
//     otherwise the document cannot be read;
//   * an object at the top is a Chrome trace as soon as a "traceEvents" key shows up;
//   * scalars are classified from their text by ClassifyJsonToken (json_stream_input.h);
//   * nesting has no limit but memory (a few bytes a level), as with simdjson On-Demand,
//     whose depth is a counter it does not check against a maximum.
// Both check the whole document, values the tree does not use included (json_simdjson_reader.cc's
// WellFormed pass), so they refuse the same damaged files.
#include "format/json_stream_reader.h"

#include <rapidjson/reader.h>

#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "format/json_reader.h"
#include "format/json_stream_input.h"

namespace proton::format {

namespace {

using tree::NodeId;
using tree::ProfileTree;
using tree::ValueType;

// RapidJSON's buffers fail the way std::string does when memory runs out (std::bad_alloc,
// which the command reports as "out of memory") instead of writing through a null pointer.
class ThrowingAllocator {
 public:
  void* Malloc(size_t size) {
    if (size == 0) return nullptr;
    void* p = std::malloc(size);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void* Realloc(void* original, size_t /*original_size*/, size_t new_size) {
    if (new_size == 0) {
      std::free(original);
      return nullptr;
    }
    void* p = std::realloc(original, new_size);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  static void Free(void* p) { std::free(p); }
};

// A string decoded from \uD800-\uDFFF escapes that pair with nothing: RapidJSON writes the
// lone low surrogate as the three bytes ED B0..BF xx, which simdjson refuses. Raw input
// never holds them (RapidJSON validates the UTF-8 it reads).
bool HasLoneSurrogate(std::string_view s) {
  for (size_t i = s.find('\xED'); i != std::string_view::npos; i = s.find('\xED', i + 1))
    if (i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xE0) == 0xA0) return true;
  return false;
}

enum class ValueKind { kScalar, kString, kObject, kArray };

// What the container being read is, for the tree.
enum class Ctx : uint8_t {
  kTop,          // the document's array: [root node, devices]
  kTraceTop,     // the document's object: a Chrome trace or nothing we read
  kNode,         // a node object
  kChildren,     // a node's "children" array
  kFrame,        // a node's "frame" object
  kMetrics,      // a node's "metrics" object
  kDeviceTypes,  // element 1: {type: {index: {field: value}}}
  kDevices,      // one type's devices
  kDevice,       // one device's fields
};

struct Level {
  Ctx ctx;
  NodeId id = tree::kNoNode;  // kNode, kFrame, kMetrics: the node
  bool done = false;          // kNode: has a frame; kFrame: has a name
  size_t count = 0;           // kTop: elements seen
};

class StreamTreeBuilder {
 public:
  StreamTreeBuilder(ProfileTree& tree, const JsonStreamInput& in) : tree_(tree), in_(in) {}

  // RapidJSON's SAX handler. Numbers arrive as RawNumber (kParseNumbersAsStringsFlag).
  bool Null() { return Scalar(ClassifyJsonToken("null")); }
  bool Bool(bool b) { return Scalar(ClassifyJsonToken(b ? "true" : "false")); }
  bool RawNumber(const char* /*placeholder*/, rapidjson::SizeType /*length*/, bool /*copy*/);
  bool Int(int /*v*/) { return false; }  // never called: numbers come as RawNumber
  bool Uint(unsigned /*v*/) { return false; }
  bool Int64(int64_t /*v*/) { return false; }
  bool Uint64(uint64_t /*v*/) { return false; }
  bool Double(double /*v*/) { return false; }
  bool String(const char* s, rapidjson::SizeType length, bool /*copy*/);
  bool Key(const char* s, rapidjson::SizeType length, bool /*copy*/);
  bool StartObject() { return Open(ValueKind::kObject); }
  bool StartArray() { return Open(ValueKind::kArray); }
  bool EndObject(rapidjson::SizeType /*members*/) { return Close(); }
  bool EndArray(rapidjson::SizeType /*elements*/) { return Close(); }

  // The outcome once RapidJSON has finished (`parsed`: without an error) and only
  // whitespace followed.
  ReadFail Outcome(bool parsed) const;

 private:
  bool Scalar(const TokenValue& t) { return Value(ValueKind::kScalar, t); }
  bool Open(ValueKind kind);
  bool Close();
  // A value (scalars in `t`, strings in t.text) in the current container.
  bool Value(ValueKind kind, const TokenValue& t);
  bool InTop(ValueKind kind);
  bool InNode(ValueKind kind);
  bool InFrame(ValueKind kind, const TokenValue& t);
  bool InMetrics(ValueKind kind, const TokenValue& t);
  bool InDeviceTable(ValueKind kind, const TokenValue& t);
  void EndNode();
  void EndFrame();
  bool Push(Level level);
  // Skips a container value the tree does not use (its content is still validated).
  bool Skip(ValueKind kind) {
    if (kind == ValueKind::kObject || kind == ValueKind::kArray) skip_ = 1;
    return true;
  }
  // Not a tree profile: the rest is only checked for being well-formed.
  bool Shape() {
    shape_ = true;
    return true;
  }

  ProfileTree& tree_;
  const JsonStreamInput& in_;
  std::vector<Level> stack_;
  size_t skip_ = 0;  // depth inside a skipped value (0: not skipping)
  bool shape_ = false, chrome_ = false, read_error_ = false, top_object_ = false;
  std::string key_;  // the key of the value being read
  std::string frame_name_, frame_type_;
  std::string device_type_, device_index_;
  tree::DeviceInfo device_;
};

bool StreamTreeBuilder::RawNumber(const char*, rapidjson::SizeType, bool) {
  const TokenValue t = ClassifyJsonToken(in_.token());
  if (t.type == ValueType::kAbsent) return read_error_ = true, false;
  return Scalar(t);
}

bool StreamTreeBuilder::String(const char* s, rapidjson::SizeType length, bool) {
  TokenValue t;
  t.type = ValueType::kString;
  t.text = std::string_view(s, length);
  if (HasLoneSurrogate(t.text)) return read_error_ = true, false;
  return Value(ValueKind::kString, t);
}

bool StreamTreeBuilder::Key(const char* s, rapidjson::SizeType length, bool) {
  key_.assign(s, length);
  if (HasLoneSurrogate(key_)) return read_error_ = true, false;
  // ChromeOrShape (json_simdjson_reader.cc): a traceEvents key directly in the top object decides.
  if (skip_ == 0 && !shape_ && stack_.size() == 1 && stack_.back().ctx == Ctx::kTraceTop &&
      key_ == "traceEvents") {
    chrome_ = true;
    return false;
  }
  return true;
}

bool StreamTreeBuilder::Open(ValueKind kind) {
  if (skip_ > 0) return ++skip_, true;
  if (stack_.empty() && !shape_) {  // the document itself
    top_object_ = kind == ValueKind::kObject;
    return Push(Level{top_object_ ? Ctx::kTraceTop : Ctx::kTop});
  }
  return Value(kind, TokenValue{});
}

bool StreamTreeBuilder::Close() {
  if (skip_ > 0) return --skip_, true;
  if (shape_) return true;
  switch (stack_.back().ctx) {
    case Ctx::kTop:
      if (stack_.back().count == 0) return Shape();
      break;
    case Ctx::kNode:
      if (!stack_.back().done) return Shape();
      break;
    case Ctx::kFrame: EndFrame(); break;
    case Ctx::kDevice:
      AddDevice(tree_.mutable_devices(), device_type_, device_index_, std::move(device_));
      break;
    default: break;
  }
  if (!shape_) stack_.pop_back();
  return true;
}

bool StreamTreeBuilder::Push(Level level) {
  stack_.push_back(level);
  return true;
}

bool StreamTreeBuilder::Value(ValueKind kind, const TokenValue& t) {
  if (skip_ > 0 || shape_) return true;
  if (stack_.empty()) return read_error_ = true, false;  // a bare scalar document
  switch (stack_.back().ctx) {
    case Ctx::kTop: return InTop(kind);
    case Ctx::kTraceTop: return Skip(kind);
    case Ctx::kNode: return InNode(kind);
    case Ctx::kChildren:
      if (kind != ValueKind::kObject) return Shape();
      return Push(Level{Ctx::kNode, tree_.AddNode(stack_.back().id)});
    case Ctx::kFrame: return InFrame(kind, t);
    case Ctx::kMetrics: return InMetrics(kind, t);
    default: return InDeviceTable(kind, t);
  }
}

bool StreamTreeBuilder::InTop(ValueKind kind) {
  const size_t index = stack_.back().count++;
  if (index > 1 || kind != ValueKind::kObject) return Shape();
  if (index == 1) return Push(Level{Ctx::kDeviceTypes});
  return Push(Level{Ctx::kNode, tree_.AddNode(tree::kNoNode)});
}

bool StreamTreeBuilder::InNode(ValueKind kind) {
  const NodeId id = stack_.back().id;
  if (key_ == "children") {
    if (kind != ValueKind::kArray) return Shape();
    return Push(Level{Ctx::kChildren, id});
  }
  if (key_ == "frame") {
    if (kind != ValueKind::kObject) return Shape();
    frame_name_.clear();
    frame_type_ = "None";
    return Push(Level{Ctx::kFrame, id});
  }
  if (key_ == "metrics") {
    if (kind != ValueKind::kObject) return Shape();
    return Push(Level{Ctx::kMetrics, id});
  }
  return Skip(kind);
}

bool StreamTreeBuilder::InFrame(ValueKind kind, const TokenValue& t) {
  const bool is_name = key_ == "name";
  if (!is_name && key_ != "type") return Skip(kind);
  if (!is_name && kind == ValueKind::kScalar && t.type == ValueType::kNull) {
    frame_type_ = "None";
    return true;
  }
  if (kind != ValueKind::kString) return Shape();
  if (is_name) {
    frame_name_.assign(t.text);
    stack_.back().done = true;
  } else {
    frame_type_.assign(t.text);
  }
  return true;
}

void StreamTreeBuilder::EndFrame() {
  const Level frame = stack_.back();
  if (!frame.done) {
    Shape();
    return;
  }
  tree_.SetFrame(frame.id, frame_name_, frame_type_);
  stack_[stack_.size() - 2].done = true;  // the node has its frame
}

bool StreamTreeBuilder::InMetrics(ValueKind kind, const TokenValue& t) {
  const NodeId id = stack_.back().id;
  switch (kind) {
    case ValueKind::kString: tree_.SetString(id, key_, t.text); return true;
    case ValueKind::kArray: tree_.SetOther(id, key_, ValueType::kArray); return Skip(kind);
    case ValueKind::kObject: tree_.SetOther(id, key_, ValueType::kObject); return Skip(kind);
    case ValueKind::kScalar: SetTokenValue(tree_, id, key_, t); return true;
  }
  return true;
}

bool StreamTreeBuilder::InDeviceTable(ValueKind kind, const TokenValue& t) {
  switch (stack_.back().ctx) {
    case Ctx::kDeviceTypes:
      if (kind != ValueKind::kObject) return Shape();
      device_type_ = key_;
      return Push(Level{Ctx::kDevices});
    case Ctx::kDevices:
      if (kind != ValueKind::kObject) return Shape();
      device_index_ = key_;
      device_ = tree::DeviceInfo();
      return Push(Level{Ctx::kDevice});
    default:  // kDevice: a field; containers leave it absent
      if (kind == ValueKind::kObject || kind == ValueKind::kArray) return Skip(kind);
      SetDeviceField(device_, key_, t);
      return true;
  }
}

ReadFail StreamTreeBuilder::Outcome(bool parsed) const {
  if (chrome_) return ReadFail::kChrome;
  if (!parsed || read_error_) return ReadFail::kRead;
  return shape_ || top_object_ ? ReadFail::kShape : ReadFail::kNone;
}

bool IsJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// After the traceEvents key that made the document a Chrome trace, what the simdjson reader
// checks before it says so: the key's colon (On-Demand reads a field as key and colon), and
// over the rest what it checks before reading any key (json_stream_input.h). The value itself
// is not looked at, there as here.
bool ChromeKeyStands(JsonStreamInput& in) {
  while (IsJsonSpace(in.Peek())) in.Take();
  if (in.at_end() || in.Peek() != ':') return false;
  in.Take();
  return in.RestPassesSimdjsonChecks();
}

ReadFail Run(JsonStreamInput& in, ProfileTree& tree) {
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseStopWhenDoneFlag |
                              rapidjson::kParseValidateEncodingFlag |
                              rapidjson::kParseNumbersAsStringsFlag;
  ThrowingAllocator allocator;
  rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, ThrowingAllocator> reader(
      &allocator);
  StreamTreeBuilder builder(tree, in);
  bool parsed = !reader.Parse<kFlags>(in, builder).IsError();
  if (parsed) {  // only whitespace may follow the document
    while (IsJsonSpace(in.Peek())) in.Take();
    parsed = in.at_end() && in.read_error() == 0;
  }
  const ReadFail fail = builder.Outcome(parsed);
  return fail == ReadFail::kChrome && !ChromeKeyStands(in) ? ReadFail::kRead : fail;
}

}  // namespace

ReadFail ParseJsonStream(std::string_view doc, ProfileTree& tree) {
  JsonStreamInput in(doc, nullptr, -1);
  in.Start(/*skip_bom=*/false);
  ReserveForJson(tree, doc.size());
  return Run(in, tree);
}

ReadFail ReadJsonStream(std::string_view head, std::unique_ptr<char[]> owner, int fd,
                        size_t size_hint, ProfileTree& tree, int& read_errno) {
  JsonStreamInput in(head, std::move(owner), fd);
  in.Start(/*skip_bom=*/true);
  ReserveForJson(tree, size_hint);
  const ReadFail fail = Run(in, tree);
  read_errno = in.read_error();
  return read_errno != 0 ? ReadFail::kRead : fail;
}

}  // namespace proton::format
