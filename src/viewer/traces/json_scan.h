// The JSON grammar for the streaming trace reader (json_trace_reader.cc): tokens scanned in
// place in a TraceInput window, validated as strictly as the tree readers validate (RFC 8259,
// UTF-8 checked, lone surrogate escapes refused; NaN, Infinity and -Infinity accepted as
// numbers, as Python writes them). Every scan stops at the window's end, which is marked by a
// NUL byte: it then answers kMore and leaves the position where it was, and the caller reads
// more and scans the whole item again from its start. Nothing recurses on depth.
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace proton::viewer::traces {

enum class Scan : uint8_t { kOk, kMore, kError };

// The first byte at or after q that a string scan must look at: '"', '\\', a control byte
// (the window's NUL sentinel among them) or a non-ASCII byte. Sixteen bytes at a time where
// SSE2 is there: a load may read up to 15 bytes past the sentinel, which the window's zero
// tail (TraceInput::kTail) covers.
inline const char* SkipPlainBytes(const char* q) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    const __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                     _mm_cmplt_epi8(v, space));  // signed: also >= 0x80
    const int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return q + __builtin_ctz(static_cast<unsigned>(mask));
    q += 16;
  }
#else
  for (;; ++q) {
    const auto c = static_cast<unsigned char>(*q);
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return q;
  }
#endif
}

// Decoded strings (those with escapes) for the item being parsed; what it hands out stays
// where it is until Reset().
class StringArena {
 public:
  char* Allocate(size_t size);
  void Reset();

 private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::vector<size_t> sizes_;
  size_t block_ = 0;  // the block being filled
  size_t used_ = 0;   // bytes of it taken
};

class JsonScanner {
 public:
  // The window ends at `end` (*end == '\0').
  void SetEnd(const char* end) { end_ = end; }
  const char* end() const { return end_; }
  // What the last kError was, and where.
  const std::string& error() const { return error_; }
  const char* error_at() const { return error_at_; }

  // Skips JSON whitespace; kMore when it reaches the end. Inline: it runs before every token,
  // and compact files (ours, Triton's) have no whitespace to skip.
  Scan SkipSpace(const char*& p) const {
    if (static_cast<unsigned char>(*p) > ' ') return Scan::kOk;
    return SkipSpaceSlow(p);
  }
  // Expects `c` after whitespace.
  Scan Expect(const char*& p, char c, const char* what) {
    if (*p == c) {  // compact JSON: no whitespace before it
      ++p;
      return Scan::kOk;
    }
    return ExpectSlow(p, c, what);
  }
  // A string at p (which must be '"'): its decoded text, a view of the window when it has no
  // escape, else of `arena`. Inline for the common case, a short ASCII string without escapes.
  Scan String(const char*& p, std::string_view& out, StringArena& arena) {
    const char* q = SkipPlainBytes(p + 1);
    if (*q != '"') return StringSlow(p, out, arena);
    out = std::string_view(p + 1, static_cast<size_t>(q - p - 1));
    p = q + 1;
    return Scan::kOk;
  }
  // A number token at p (or NaN, Infinity, -Infinity): its text.
  Scan Number(const char*& p, std::string_view& token);
  // Any value at p (after whitespace), checked and skipped; `raw` (if given) gets its text.
  Scan SkipValue(const char*& p, std::string_view* raw = nullptr);
  // true, false or null at p: 1, 0, or -1 for null.
  Scan Literal(const char*& p, int& value);

  Scan Fail(const char* at, std::string message);

 private:
  enum class SkipState : uint8_t { kValue, kValueOrClose, kKey, kKeyOrClose, kAfterValue, kDone };
  Scan SkipSpaceSlow(const char*& p) const;
  Scan StringSlow(const char*& p, std::string_view& out, StringArena& arena);
  Scan ExpectSlow(const char*& p, char c, const char* what);
  Scan StringEscape(const char*& p, std::string& decoded);
  Scan CheckUtf8(const char*& p);
  Scan SkipStep(const char*& p, SkipState& state);
  Scan SkipScalarOrOpen(const char*& p, SkipState& state);

  const char* end_ = nullptr;
  std::string error_;
  const char* error_at_ = nullptr;
  std::string decoded_;     // scratch for escaped strings
  std::string open_;        // SkipValue's open containers, '{' or '['
  StringArena skip_arena_;  // strings SkipValue steps over
};

// Number tokens (already checked by JsonScanner::Number) converted.
// Microseconds to nanoseconds, exactly for decimal text (95661.532 -> 95661532), rounded
// half away from zero past 3 decimals; false when not finite or out of int64's range.
bool MicrosecondsToNanoseconds(std::string_view token, int64_t& ns);
// An integer (also "7.0"-like integral values); false otherwise or out of range.
bool TokenToInt64(std::string_view token, int64_t& value);
bool TokenToUint64(std::string_view token, uint64_t& value);
double TokenToDouble(std::string_view token);
// Whether the token is written as an integer (no '.', exponent, NaN or Infinity).
bool IsIntegerToken(std::string_view token);

}  // namespace proton::viewer::traces
