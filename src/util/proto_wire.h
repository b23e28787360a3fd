// Protocol Buffers wire format (https://protobuf.dev/programming-guides/encoding/), the part a
// Perfetto trace needs: varints, fixed64 doubles and length-delimited fields. Writing and
// reading by hand instead of through libprotobuf because the trace is a flat stream of small
// messages with a known schema: the writer appends fields to a string without building message
// objects (formats.md §7 says which fields), and readers walk fields in place without copying.
// Both sides are allocation-free apart from the caller's output string.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace proton::proto {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

inline void AppendVarint(std::string& out, uint64_t value) {
  char buf[10];
  size_t n = 0;
  while (value >= 0x80) {
    buf[n++] = static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  buf[n++] = static_cast<char>(value);
  out.append(buf, n);
}

inline size_t VarintSize(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

inline void AppendTag(std::string& out, uint32_t field, WireType type) {
  AppendVarint(out, (static_cast<uint64_t>(field) << 3) | type);
}

// uint32/uint64/int32/int64/bool/enum fields (negative int32/int64 take 10 bytes, as in
// protobuf; sint fields are not used).
inline void AppendUint(std::string& out, uint32_t field, uint64_t value) {
  AppendTag(out, field, kVarint);
  AppendVarint(out, value);
}
inline void AppendInt(std::string& out, uint32_t field, int64_t value) {
  AppendUint(out, field, static_cast<uint64_t>(value));
}

inline void AppendDouble(std::string& out, uint32_t field, double value) {
  AppendTag(out, field, kFixed64);
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  char buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>((bits >> (8 * i)) & 0xff);
  out.append(buf, 8);
}

// A string, bytes or an already encoded sub-message.
inline void AppendBytes(std::string& out, uint32_t field, std::string_view bytes) {
  AppendTag(out, field, kLengthDelimited);
  AppendVarint(out, bytes.size());
  out.append(bytes.data(), bytes.size());
}

// A sub-message written in place: the length is patched when the scope ends. The length
// field is reserved at its maximum for the message's expected size class, so nothing moves
// unless the message outgrows it.
class NestedMessage {
 public:
  NestedMessage(std::string& out, uint32_t field) : out_(out) {
    AppendTag(out_, field, kLengthDelimited);
    at_ = out_.size();
    out_.append(kReserved, '\0');
  }
  NestedMessage(const NestedMessage&) = delete;
  NestedMessage& operator=(const NestedMessage&) = delete;
  ~NestedMessage() { Close(); }

  // Patches the length; the message's bytes are final afterwards.
  void Close() {
    if (closed_) return;
    closed_ = true;
    size_t size = out_.size() - at_ - kReserved;
    char buf[10];
    size_t n = 0;
    uint64_t v = size;
    // Fixed-width varint (redundant continuation bytes) keeps the reserved width: valid
    // protobuf, and no byte of the message moves.
    for (size_t i = 0; i < kReserved; ++i) {
      buf[n++] = static_cast<char>((v & 0x7f) | (i + 1 < kReserved ? 0x80 : 0));
      v >>= 7;
    }
    if (v != 0) {  // over 2^28 bytes: re-encode minimally and move the body
      std::string len;
      AppendVarint(len, size);
      out_.replace(at_, kReserved, len);
      return;
    }
    std::memcpy(&out_[at_], buf, kReserved);
  }

 private:
  static constexpr size_t kReserved = 4;  // up to 256 MiB without moving
  std::string& out_;
  size_t at_;
  bool closed_ = false;
};

// One field read from a message.
struct Field {
  uint32_t number = 0;
  WireType type = kVarint;
  uint64_t varint = 0;     // kVarint, kFixed64 (raw bits), kFixed32
  std::string_view bytes;  // kLengthDelimited

  double as_double() const {
    double d;
    std::memcpy(&d, &varint, sizeof d);
    return d;
  }
};

// Walks the fields of one message in place. A malformed message (truncated, bad wire type,
// varint over 10 bytes, field 0) ends the walk with ok() false.
class Reader {
 public:
  explicit Reader(std::string_view message) : p_(message.data()), end_(p_ + message.size()) {}

  // The next field into `field`; false at the end or on an error (then ok() is false).
  bool Next(Field& field) {
    if (p_ == end_) return false;
    uint64_t key;
    if (!ReadVarint(key) || (key >> 3) == 0 || (key >> 3) > 0x1fffffff) return Fail();
    field.number = static_cast<uint32_t>(key >> 3);
    field.type = static_cast<WireType>(key & 7);
    switch (field.type) {
      case kVarint: return ReadVarint(field.varint) || Fail();
      case kFixed64: return ReadFixed(field.varint, 8) || Fail();
      case kFixed32: return ReadFixed(field.varint, 4) || Fail();
      case kLengthDelimited: {
        uint64_t size;
        if (!ReadVarint(size) || size > static_cast<uint64_t>(end_ - p_)) return Fail();
        field.bytes = std::string_view(p_, size);
        p_ += size;
        return true;
      }
    }
    return Fail();
  }
  bool ok() const { return ok_; }
  // Bytes consumed so far (where the next field starts).
  size_t offset(std::string_view message) const { return static_cast<size_t>(p_ - message.data()); }

 private:
  bool Fail() {
    ok_ = false;
    p_ = end_;
    return false;
  }
  bool ReadVarint(uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 70 && p_ < end_; shift += 7) {
      uint8_t b = static_cast<uint8_t>(*p_++);
      value |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  }
  bool ReadFixed(uint64_t& value, int width) {
    if (end_ - p_ < width) return false;
    value = 0;
    for (int i = 0; i < width; ++i)
      value |= static_cast<uint64_t>(static_cast<uint8_t>(p_[i])) << (8 * i);
    p_ += width;
    return true;
  }

  const char* p_;
  const char* end_;
  bool ok_ = true;
};

}  // namespace proton::proto
