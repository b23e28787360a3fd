// MessagePack profile reader (viewer.md §11.1; formats.md §3).
//
// Hand-written rather than msgpack-cxx: msgpack::unpack builds an object zone (a DOM, about
// the size of the input again) and its visitor API (msgpack::parse) drives callbacks from
// its own parser stack, which would turn our tree building into a callback state machine
// with the same explicit stack we have here anyway. A direct reader is a few hundred lines,
// never recurses (one explicit stack of open nodes; unknown values are skipped with an item
// counter), checks every length against the end of the buffer, and views strings in place.
#include "format/msgpack_reader.h"

#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace proton::format {

using tree::NodeId;
using tree::ProfileTree;
using tree::ValueType;

namespace {

enum class Kind { kNil, kBool, kInt, kUint, kFloat, kStr, kBin, kArray, kMap, kExt };

struct Item {
  Kind kind = Kind::kNil;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  const char* s = nullptr;
  uint64_t len = 0;  // str/bin/ext bytes; array elements; map pairs
};

class Cursor {
 public:
  Cursor(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}
  bool at_end() const { return p_ == end_; }

  // Reads one item header (and the payload of scalars, strings, bin and ext).
  // False when truncated or on the reserved byte 0xc1.
  bool Next(Item& it) {
    if (p_ >= end_) return false;
    const uint8_t c = *p_++;
    if (c <= 0x7f) return SetUint(it, c);
    if (c >= 0xe0) return SetInt(it, static_cast<int8_t>(c));
    if ((c & 0xf0) == 0x80) return Container(it, Kind::kMap, c & 0x0f);
    if ((c & 0xf0) == 0x90) return Container(it, Kind::kArray, c & 0x0f);
    if ((c & 0xe0) == 0xa0) return Bytes(it, Kind::kStr, c & 0x1f);
    uint64_t v = 0;
    switch (c) {
      case 0xc0: it.kind = Kind::kNil; return true;
      case 0xc2:
      case 0xc3:
        it.kind = Kind::kBool;
        it.b = c == 0xc3;
        return true;
      case 0xc4: return Be(1, v) && Bytes(it, Kind::kBin, v);
      case 0xc5: return Be(2, v) && Bytes(it, Kind::kBin, v);
      case 0xc6: return Be(4, v) && Bytes(it, Kind::kBin, v);
      case 0xc7: return Be(1, v) && Bytes(it, Kind::kExt, v + 1);
      case 0xc8: return Be(2, v) && Bytes(it, Kind::kExt, v + 1);
      case 0xc9: return Be(4, v) && Bytes(it, Kind::kExt, v + 1);
      case 0xca: {
        if (!Be(4, v)) return false;
        float f;
        const uint32_t w = static_cast<uint32_t>(v);
        std::memcpy(&f, &w, 4);
        it.kind = Kind::kFloat;
        it.d = f;
        return true;
      }
      case 0xcb: {
        if (!Be(8, v)) return false;
        it.kind = Kind::kFloat;
        std::memcpy(&it.d, &v, 8);
        return true;
      }
      case 0xcc: return Be(1, v) && SetUint(it, v);
      case 0xcd: return Be(2, v) && SetUint(it, v);
      case 0xce: return Be(4, v) && SetUint(it, v);
      case 0xcf: return Be(8, v) && SetUint(it, v);
      case 0xd0: return Be(1, v) && SetInt(it, static_cast<int8_t>(v));
      case 0xd1: return Be(2, v) && SetInt(it, static_cast<int16_t>(v));
      case 0xd2: return Be(4, v) && SetInt(it, static_cast<int32_t>(v));
      case 0xd3: return Be(8, v) && SetInt(it, static_cast<int64_t>(v));
      case 0xd4: return Bytes(it, Kind::kExt, 2);
      case 0xd5: return Bytes(it, Kind::kExt, 3);
      case 0xd6: return Bytes(it, Kind::kExt, 5);
      case 0xd7: return Bytes(it, Kind::kExt, 9);
      case 0xd8: return Bytes(it, Kind::kExt, 17);
      case 0xd9: return Be(1, v) && Bytes(it, Kind::kStr, v);
      case 0xda: return Be(2, v) && Bytes(it, Kind::kStr, v);
      case 0xdb: return Be(4, v) && Bytes(it, Kind::kStr, v);
      case 0xdc: return Be(2, v) && Container(it, Kind::kArray, v);
      case 0xdd: return Be(4, v) && Container(it, Kind::kArray, v);
      case 0xde: return Be(2, v) && Container(it, Kind::kMap, v);
      case 0xdf: return Be(4, v) && Container(it, Kind::kMap, v);
      default: return false;  // 0xc1 is never used
    }
  }

  // Skips `count` whole values. bin/ext inside set `saw_binary` (a shape error for callers
  // that care). False when the stream is truncated or invalid.
  bool Skip(uint64_t count, bool& saw_binary) {
    Item it;
    while (count > 0) {
      if (!Next(it)) return false;
      --count;
      if (it.kind == Kind::kArray)
        count += it.len;
      else if (it.kind == Kind::kMap)
        count += 2 * it.len;
      else if (it.kind == Kind::kBin || it.kind == Kind::kExt)
        saw_binary = true;
    }
    return true;
  }

 private:
  bool Be(int n, uint64_t& v) {
    if (end_ - p_ < n) return false;
    v = 0;
    for (int k = 0; k < n; ++k) v = (v << 8) | p_[k];
    p_ += n;
    return true;
  }
  static bool SetUint(Item& it, uint64_t v) {
    it.kind = Kind::kUint;
    it.u = v;
    return true;
  }
  static bool SetInt(Item& it, int64_t v) {
    it.kind = Kind::kInt;
    it.i = v;
    return true;
  }
  bool Bytes(Item& it, Kind k, uint64_t n) {
    if (static_cast<uint64_t>(end_ - p_) < n) return false;
    it.kind = k;
    it.s = reinterpret_cast<const char*>(p_);
    it.len = n;
    p_ += n;
    return true;
  }
  static bool Container(Item& it, Kind k, uint64_t n) {
    it.kind = k;
    it.len = n;
    return true;
  }

  const uint8_t* p_;
  const uint8_t* end_;
};

std::string_view Str(const Item& it) { return {it.s, static_cast<size_t>(it.len)}; }

// Scalar → TokenValue; kAbsent for containers, bin and ext.
TokenValue Scalar(const Item& it) {
  TokenValue t;
  switch (it.kind) {
    case Kind::kNil: t.type = ValueType::kNull; break;
    case Kind::kBool: t.type = ValueType::kBool; break;
    case Kind::kInt:
      t.type = ValueType::kInt;
      t.i = it.i;
      t.d = static_cast<double>(it.i);
      break;
    case Kind::kUint:
      if (it.u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        t.type = ValueType::kInt;
        t.i = static_cast<int64_t>(it.u);
      } else {
        t.type = ValueType::kDouble;  // above 2^63-1 (§11.1)
      }
      t.d = static_cast<double>(it.u);
      break;
    case Kind::kFloat:
      t.type = ValueType::kDouble;
      t.d = it.d;
      break;
    case Kind::kStr:
      t.type = ValueType::kString;
      t.text = Str(it);
      break;
    default: break;
  }
  return t;
}

class MsgpackTreeReader {
 public:
  MsgpackTreeReader(Cursor& cur, ProfileTree& tree) : cur_(cur), tree_(tree) {}

  ReadFail Run() {
    Item top;
    if (!cur_.Next(top)) return ReadFail::kRead;
    if (top.kind != Kind::kArray) return ReadFail::kShape;
    if (top.len < 1 || top.len > 2) return ReadFail::kShape;
    PROTON_READ_TRY(BeginNode(tree::kNoNode));
    PROTON_READ_TRY(Walk());
    if (top.len == 2) PROTON_READ_TRY(ReadDevices());
    return cur_.at_end() ? ReadFail::kNone : ReadFail::kRead;
  }

 private:
  struct Level {
    NodeId id;
    uint64_t fields_left;
    uint64_t kids_left = 0;
    bool in_children = false;
    bool has_frame = false;
  };

  ReadFail NextOr(Item& it) { return cur_.Next(it) ? ReadFail::kNone : ReadFail::kRead; }
  ReadFail SkipOne() {
    bool binary = false;
    if (!cur_.Skip(1, binary)) return ReadFail::kRead;
    return binary ? ReadFail::kShape : ReadFail::kNone;
  }
  ReadFail Key(std::string_view& key) {
    Item it;
    PROTON_READ_TRY(NextOr(it));
    if (it.kind != Kind::kStr) return ReadFail::kShape;  // map keys must be strings
    key = Str(it);
    return ReadFail::kNone;
  }

  ReadFail BeginNode(NodeId parent) {
    Item it;
    PROTON_READ_TRY(NextOr(it));
    if (it.kind != Kind::kMap) return ReadFail::kShape;
    stack_.push_back(Level{tree_.AddNode(parent), it.len});
    return ReadFail::kNone;
  }

  ReadFail Walk() {
    while (!stack_.empty()) {
      Level& l = stack_.back();
      if (l.in_children) {
        if (l.kids_left > 0) {
          --l.kids_left;
          PROTON_READ_TRY(BeginNode(l.id));
        } else {
          l.in_children = false;
        }
        continue;
      }
      if (l.fields_left == 0) {
        if (!l.has_frame) return ReadFail::kShape;
        stack_.pop_back();
        continue;
      }
      --l.fields_left;
      std::string_view key;
      PROTON_READ_TRY(Key(key));
      if (key == "children") {
        Item it;
        PROTON_READ_TRY(NextOr(it));
        if (it.kind != Kind::kArray) return ReadFail::kShape;
        l.in_children = true;
        l.kids_left = it.len;
      } else if (key == "frame") {
        PROTON_READ_TRY(ReadFrame(l.id));
        l.has_frame = true;
      } else if (key == "metrics") {
        PROTON_READ_TRY(ReadMetrics(l.id));
      } else {
        PROTON_READ_TRY(SkipOne());
      }
    }
    return ReadFail::kNone;
  }

  ReadFail ReadFrame(NodeId n) {
    Item m;
    PROTON_READ_TRY(NextOr(m));
    if (m.kind != Kind::kMap) return ReadFail::kShape;
    std::string_view name, type = "None";
    bool has_name = false;
    for (uint64_t k = 0; k < m.len; ++k) {
      std::string_view key;
      PROTON_READ_TRY(Key(key));
      if (key != "name" && key != "type") {
        PROTON_READ_TRY(SkipOne());
        continue;
      }
      Item v;
      PROTON_READ_TRY(NextOr(v));
      if (key == "type" && v.kind == Kind::kNil) {
        type = "None";
        continue;
      }
      if (v.kind != Kind::kStr) return ReadFail::kShape;
      if (key == "name") {
        name = Str(v);
        has_name = true;
      } else {
        type = Str(v);
      }
    }
    if (!has_name) return ReadFail::kShape;
    tree_.SetFrame(n, name, type);
    return ReadFail::kNone;
  }

  ReadFail ReadMetrics(NodeId n) {
    Item m;
    PROTON_READ_TRY(NextOr(m));
    if (m.kind != Kind::kMap) return ReadFail::kShape;
    for (uint64_t k = 0; k < m.len; ++k) {
      std::string_view key;
      PROTON_READ_TRY(Key(key));
      Item v;
      PROTON_READ_TRY(NextOr(v));
      bool binary = false;
      switch (v.kind) {
        case Kind::kArray:
          tree_.SetOther(n, key, ValueType::kArray);
          if (!cur_.Skip(v.len, binary)) return ReadFail::kRead;
          break;
        case Kind::kMap:
          tree_.SetOther(n, key, ValueType::kObject);
          if (!cur_.Skip(2 * v.len, binary)) return ReadFail::kRead;
          break;
        case Kind::kBin:
        case Kind::kExt: return ReadFail::kShape;
        case Kind::kStr: tree_.SetString(n, key, Str(v)); break;
        default: SetTokenValue(tree_, n, key, Scalar(v)); break;
      }
      if (binary) return ReadFail::kShape;
    }
    return ReadFail::kNone;
  }

  ReadFail ReadDevices() {
    Item types;
    PROTON_READ_TRY(NextOr(types));
    if (types.kind != Kind::kMap) return ReadFail::kShape;
    for (uint64_t a = 0; a < types.len; ++a) {
      std::string_view type_key;
      PROTON_READ_TRY(Key(type_key));
      Item devs;
      PROTON_READ_TRY(NextOr(devs));
      if (devs.kind != Kind::kMap) return ReadFail::kShape;
      for (uint64_t b = 0; b < devs.len; ++b) {
        std::string_view index_key;
        PROTON_READ_TRY(Key(index_key));
        Item fields;
        PROTON_READ_TRY(NextOr(fields));
        if (fields.kind != Kind::kMap) return ReadFail::kShape;
        tree::DeviceInfo info;
        for (uint64_t c = 0; c < fields.len; ++c) {
          std::string_view fkey;
          PROTON_READ_TRY(Key(fkey));
          Item v;
          PROTON_READ_TRY(NextOr(v));
          bool binary = false;
          if (v.kind == Kind::kArray || v.kind == Kind::kMap) {
            if (!cur_.Skip(v.kind == Kind::kMap ? 2 * v.len : v.len, binary))
              return ReadFail::kRead;
            if (binary) return ReadFail::kShape;
            continue;
          }
          if (v.kind == Kind::kBin || v.kind == Kind::kExt) return ReadFail::kShape;
          TokenValue t = Scalar(v);
          std::string text;
          if (t.type == ValueType::kInt) {
            text = std::to_string(t.i);
            t.text = text;
          } else if (v.kind == Kind::kUint) {
            text = std::to_string(v.u);
            t.text = text;
          }
          SetDeviceField(info, fkey, t);
        }
        AddDevice(tree_.mutable_devices(), std::string(type_key), std::string(index_key),
                  std::move(info));
      }
    }
    return ReadFail::kNone;
  }

  Cursor& cur_;
  ProfileTree& tree_;
  std::vector<Level> stack_;
};

}  // namespace

ReadFail ParseMsgpack(const char* data, size_t size, ProfileTree& tree) {
  const auto* p = reinterpret_cast<const uint8_t*>(data);
  Cursor cur(p, p + size);
  tree.Reserve(size / 24 + 16, size / 2 + 64);  // see ParseJson: capacity is cheap
  ReadFail r;
  {
    MsgpackTreeReader reader(cur, tree);
    r = reader.Run();
  }
  if (r == ReadFail::kShape) {
    // A truncated or invalid stream is "cannot read" even when a shape error came first.
    Cursor check(p, p + size);
    bool binary = false;
    if (!check.Skip(1, binary) || !check.at_end()) return ReadFail::kRead;
  }
  return r;
}

}  // namespace proton::format
