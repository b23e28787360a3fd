// Fast path of the JSON profile reader. Proton writes its profiles indented (4 spaces per
// level), so 60-70% of a large file is whitespace; simdjson's stage 1 still classifies every
// byte and writes a 4-byte structural index entry per token (a buffer of 4x the file size
// that must be faulted in), and that was the largest cost of `proton-viewer` on big files.
// This reader walks the text once, skipping whitespace runs 16 bytes at a time, and builds
// the tree directly with an explicit stack (no recursion: 100,000-level chains work).
//
// It only accepts the common subset: strings without control bytes (escapes and UTF-8 are
// decoded and validated, json_string.h), scalar
// metric/device values, the node keys "children"/"frame"/"metrics" (other keys with scalar
// values are skipped). Anything else, and every syntax or shape error, makes it give up so
// the next reader of json_reader.h's rule reads the document from scratch; on every one it takes it
// makes the same ProfileTree calls, in the same order, as JsonTreeReader in
// json_simdjson_reader.cc, so the result is identical (tested by json_fast_reader_test.cc on every
// sample file).
#include "format/json_fast_reader.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "format/json_reader.h"
#include "format/json_string.h"
#include "format/read_ahead.h"
#include "format/reader_common.h"

namespace proton::format {

namespace {

using tree::NodeId;
using tree::ProfileTree;
using tree::ValueType;

inline bool IsJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// First non-whitespace byte at or after p. Stops at the NUL after the input at the latest.
inline const char* SkipWs(const char* p) {
  if (!IsJsonSpace(*p)) return p;
  ++p;
#if defined(__SSE2__)
  const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
                tab = _mm_set1_epi8('\t');
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, nl)),
                                    _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, tab)));
    const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(ws)) & 0xffffu;
    if (other != 0) return p + __builtin_ctz(other);
    p += 16;
  }
#else
  while (IsJsonSpace(*p)) ++p;
  return p;
#endif
}

// The end of a string's content starting at p: the first '"', '\\', control or non-ASCII
// byte (the NUL sentinel included).
inline const char* ScanString(const char* p) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), low = _mm_set1_epi8(0x20);
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed compare: bytes >= 0x80 are negative, so this also catches non-ASCII.
    const __m128i stop = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)), _mm_cmplt_epi8(v, low));
    const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(stop));
    if (m != 0) return p + __builtin_ctz(m);
    p += 16;
  }
#else
  for (;; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return p;
  }
#endif
}

inline bool IsTokenChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
         c == '+' || c == '.';
}

// Streaming: a window of kWindow bytes is refilled by read() whenever fewer than kKeep
// bytes are left at a safe point (between fields, where no view into the window is held).
// This keeps the input hot in cache and touches only the window's pages: on virtual machines
// each first touch of a 4 KB page of a mapped file is expensive (about 1 GB/s to scan a
// mapping here, against 2.3 GB/s for read() into a reused buffer; 64-256 KiB windows stay in
// the L2 cache and copy fastest). A field, frame or
// whitespace run longer than kKeep makes the reader hand over, which is only slower.
constexpr size_t kWindow = size_t{256} << 10;
constexpr size_t kKeep = size_t{64} << 10;
constexpr size_t kTail = 64;
constexpr size_t kMaxLevels =
    (size_t{1} << 23) - 16;  // NUL sentinel + room for the 16-byte loads past the end

class FastReader {
 public:
  FastReader(const char* data, size_t size, ProfileTree& tree)
      : p_(data), end_(data + size), tree_(tree) {}
  // Streaming from fd (at offset 0). A file of several windows is read one window ahead on a
  // helper thread (read_ahead.h), so the kernel's copy overlaps the parsing.
  FastReader(int fd, size_t size_hint, ProfileTree& tree)
      : p_(kEmpty), end_(kEmpty), tree_(tree), fd_(fd), eof_(false) {
    if (size_hint > 2 * kWindow) {
      ahead_ = std::make_unique<ReadAhead>(fd, kWindow, kKeep, kTail);
    } else {
      window_.reset(new char[kWindow + kTail]);
      std::memset(window_.get(), 0, kTail);
      p_ = end_ = window_.get();
    }
  }

  bool Run();

 private:
  struct Level {
    NodeId id;
    bool has_frame = false;
    bool in_children = false;
    bool first = true;  // no element read yet in the current object/array
  };

  // At a safe point: tops the window up so that at least kKeep bytes (or the rest of the
  // input) follow p_. False on a read error.
  bool Refill(bool force = false) {
    if (eof_ || (!force && static_cast<size_t>(end_ - p_) >= kKeep)) return true;
    const size_t left = static_cast<size_t>(end_ - p_);
    if (ahead_ != nullptr) {
      const ReadAhead::Span next = ahead_->Next(p_, left);
      if (next.error) return false;
      p_ = next.begin;
      end_ = next.end;
      eof_ = next.eof;
      return true;
    }
    char* w = window_.get();
    std::memmove(w, p_, left);
    size_t have = left;
    while (have < kWindow) {
      const ssize_t got = ::read(fd_, w + have, kWindow - have);
      if (got < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      if (got == 0) {
        eof_ = true;
        break;
      }
      have += static_cast<size_t>(got);
    }
    std::memset(w + have, 0, kTail);
    p_ = w;
    end_ = w + have;
    return true;
  }

  // p_ at '"': the string's content, p_ after the closing quote. Plain ASCII is a view into
  // the window; escapes and non-ASCII are decoded (and validated, as simdjson does) into
  // `scratch`, which must outlive the use of `out`. The whole string must be in the window.
  bool String(std::string_view& out, std::string& scratch) {
    if (*p_ != '"') return false;
    const char* s = p_ + 1;
    const char* e = ScanString(s);
    if (*e != '"') {
      scratch.assign(s, static_cast<size_t>(e - s));
      if (!DecodeJsonStringTail(e, scratch)) return false;
      out = scratch;
      p_ = e + 1;
      return true;
    }
    out = std::string_view(s, static_cast<size_t>(e - s));
    p_ = e + 1;
    return true;
  }
  bool String(std::string_view& out) { return String(out, scratch_value_); }
  // A key and its colon; p_ at the value afterwards.
  bool Key(std::string_view& key) {
    if (!String(key, scratch_key_)) return false;
    p_ = SkipWs(p_);
    if (*p_ != ':') return false;
    p_ = SkipWs(p_ + 1);
    return true;
  }
  // A scalar token (number, NaN/Infinity, true/false/null), validated.
  bool Token(TokenValue& t) {
    const char* s = p_;
    while (IsTokenChar(*p_)) ++p_;
    t = ClassifyJsonToken(std::string_view(s, static_cast<size_t>(p_ - s)));
    return t.type != ValueType::kAbsent;
  }
  // Before the next member of an object/array: the separator, or the closing `close`.
  // Returns 1 for another member (p_ at it), 0 at the end (p_ after `close`), -1 on error.
  int Next(bool& first, char close) {
    p_ = SkipWs(p_);
    if (*p_ == close) {
      ++p_;
      return 0;
    }
    if (first) {
      first = false;
      return 1;
    }
    if (*p_ != ',') return -1;
    p_ = SkipWs(p_ + 1);
    return 1;
  }
  bool Open(char c) {
    if (*p_ != c) return false;
    ++p_;
    return true;
  }

  bool Walk();
  bool Frame(NodeId n);
  bool Metrics(NodeId n);
  bool Devices();

  static constexpr char kEmpty[kTail] = {};  // before the first Refill
  std::unique_ptr<ReadAhead> ahead_;         // streaming a large file
  std::unique_ptr<char[]> window_;           // streaming a small file
  const char* p_;
  const char* end_;  // *end_ is a NUL
  ProfileTree& tree_;
  int fd_ = -1;
  bool eof_ = true;
  std::vector<Level> stack_;
  // Decoded strings, one per string that can be alive at the same time (json_string.h).
  std::string scratch_key_, scratch_value_, scratch_type_, scratch_skip_;
};

bool FastReader::Walk() {
  while (!stack_.empty()) {
    if (!Refill()) return false;
    Level& l = stack_.back();
    if (l.in_children) {
      const int r = Next(l.first, ']');
      if (r < 0) return false;
      if (r == 0) {
        l.in_children = false;
        l.first = false;  // the node's next field needs a comma
        continue;
      }
      if (!Open('{')) return false;
      // simdjson's reader stops at 2^24 open containers (two per level): hand such a
      // document over so that both paths keep failing alike.
      if (stack_.size() >= kMaxLevels) return false;
      const NodeId id = tree_.AddNode(l.id);  // l is invalidated by the push below
      stack_.push_back(Level{id});
      continue;
    }
    const int r = Next(l.first, '}');
    if (r < 0) return false;
    if (r == 0) {
      if (!l.has_frame) return false;
      stack_.pop_back();
      continue;
    }
    std::string_view key;
    if (!Key(key)) return false;
    if (key == "children") {
      if (!Open('[')) return false;
      l.in_children = true;
      l.first = true;
      continue;
    }
    // The node's own comma handling resumes after this field.
    if (key == "frame") {
      if (!Frame(l.id)) return false;
      l.has_frame = true;
    } else if (key == "metrics") {
      if (!Metrics(l.id)) return false;
    } else {
      std::string_view s;
      TokenValue t;
      if (*p_ == '"' ? !String(s) : !Token(t)) return false;
    }
    l.first = false;
  }
  return true;
}

bool FastReader::Frame(NodeId n) {
  if (!Open('{')) return false;
  std::string_view name, type = "None";
  bool has_name = false, first = true;
  for (;;) {
    const int r = Next(first, '}');
    if (r < 0) return false;
    if (r == 0) break;
    std::string_view key, s;
    if (!Key(key)) return false;
    if (key == "name") {
      if (!String(name)) return false;
      has_name = true;
    } else if (key == "type") {
      if (*p_ == '"') {
        if (!String(type, scratch_type_)) return false;
      } else {
        TokenValue t;
        if (!Token(t) || t.type != ValueType::kNull) return false;
        type = "None";
      }
    } else {
      TokenValue t;
      if (*p_ == '"' ? !String(s, scratch_skip_) : !Token(t)) return false;
    }
  }
  if (!has_name) return false;
  tree_.SetFrame(n, name, type);
  return true;
}

bool FastReader::Metrics(NodeId n) {
  if (!Open('{')) return false;
  bool first = true;
  for (;;) {
    if (!Refill()) return false;  // no view is held between metrics
    const int r = Next(first, '}');
    if (r < 0) return false;
    if (r == 0) return true;
    std::string_view key;
    if (!Key(key)) return false;
    if (*p_ == '"') {
      std::string_view s;
      if (!String(s)) return false;
      tree_.SetString(n, key, s);
    } else {
      TokenValue t;
      if (!Token(t)) return false;
      SetTokenValue(tree_, n, key, t);
    }
  }
}

bool FastReader::Devices() {
  if (!Open('{')) return false;
  bool first_type = true;
  for (;;) {
    if (!Refill()) return false;  // keys are copied before any refill below
    int r = Next(first_type, '}');
    if (r < 0) return false;
    if (r == 0) return true;
    std::string_view tkey;
    if (!Key(tkey) || !Open('{')) return false;
    const std::string device_type(tkey);
    bool first_device = true;
    for (;;) {
      if (!Refill()) return false;
      r = Next(first_device, '}');
      if (r < 0) return false;
      if (r == 0) break;
      std::string_view dkey;
      if (!Key(dkey) || !Open('{')) return false;
      const std::string index(dkey);
      tree::DeviceInfo info;
      bool first_field = true;
      for (;;) {
        r = Next(first_field, '}');
        if (r < 0) return false;
        if (r == 0) break;
        std::string_view fkey;
        if (!Key(fkey)) return false;
        TokenValue t;
        if (*p_ == '"') {
          if (!String(t.text)) return false;
          t.type = ValueType::kString;
        } else if (!Token(t)) {
          return false;
        }
        SetDeviceField(info, fkey, t);
      }
      AddDevice(tree_.mutable_devices(), device_type, index, std::move(info));
    }
  }
}

bool FastReader::Run() {
  if (!Refill(true)) return false;
  if (fd_ >= 0 && end_ - p_ >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) p_ += 3;
  p_ = SkipWs(p_);
  if (!Open('[')) return false;
  p_ = SkipWs(p_);
  if (!Open('{')) return false;
  stack_.push_back(Level{tree_.AddNode(tree::kNoNode)});
  if (!Walk()) return false;
  p_ = SkipWs(p_);
  if (*p_ == ',') {
    p_ = SkipWs(p_ + 1);
    if (!Devices()) return false;
    p_ = SkipWs(p_);
  }
  if (!Open(']')) return false;
  for (;;) {  // only whitespace up to the end of the input
    p_ = SkipWs(p_);
    if (p_ != end_) return false;
    if (eof_) return true;
    if (!Refill(true)) return false;
  }
}

}  // namespace

bool ParseJsonFast(const char* data, size_t size, ProfileTree& tree) {
  if (data[size] != '\0') return false;
  FastReader reader(data, size, tree);
  return reader.Run();
}

bool ReadJsonFast(int fd, size_t size_hint, ProfileTree& tree) {
  ReserveForJson(tree, size_hint);
  FastReader reader(fd, size_hint, tree);
  return reader.Run();
}

}  // namespace proton::format
