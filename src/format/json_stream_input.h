// The input of the streaming JSON reader (json_stream_reader.cc), as a RapidJSON input
// stream: bytes already in memory, then the rest of a file descriptor read chunk by chunk, so
// a document of any size passes through a bounded buffer.
//
// Scalars are lifted out of the text: outside strings, a run of token characters starting
// like a number, NaN or Infinity is kept whole in token() and RapidJSON is shown a single '0'
// in its place. RapidJSON's own number grammar would refuse values the other JSON paths read
// the way Python does (1e400 is inf, a 400-digit integer a float) and accept ones they refuse
// (Inf, -NaN); the handler classifies token() with ClassifyJsonToken instead, the function
// the simdjson and fast paths use. RapidJSON sees the placeholder exactly where a number may
// stand, so every lifted run reaches the handler as a RawNumber event or fails the parse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "format/read_ahead.h"

namespace proton::format {

class JsonStreamInput {
 public:
  // RapidJSON passes string lengths as 32-bit SizeType; a longer string would be truncated.
  static constexpr size_t kMaxStringBytes = uint32_t{0xFFFFFFFF} - 1;
  using Ch = char;  // RapidJSON's stream concept

  // `head` is read first; `owner` (may be null) holds it and is freed once it is consumed.
  // Then, when `fd` >= 0, the rest of `fd` from its current offset up to end of file.
  JsonStreamInput(std::string_view head, std::unique_ptr<char[]> owner, int fd);
  ~JsonStreamInput();
  JsonStreamInput(const JsonStreamInput&) = delete;
  JsonStreamInput& operator=(const JsonStreamInput&) = delete;

  // Loads the first byte, after a UTF-8 byte-order mark when `skip_bom`.
  void Start(bool skip_bom);

  char Peek() const { return cur_; }
  char Take() {
    const char c = cur_;
    if (!at_end_) Step(c);
    return c;
  }
  size_t Tell() const { return taken_; }
  // Only used with kParseInsituFlag, which the reader does not set.
  char* PutBegin() { return nullptr; }
  void Put(char /*c*/) {}
  void Flush() {}
  size_t PutEnd(char* /*begin*/) { return 0; }

  // Peek() is the end of the input (or of what could be read), not a byte of it.
  bool at_end() const { return at_end_; }
  // errno of a failed read(), 0 if none.
  int read_error() const { return read_error_; }
  // A string longer than RapidJSON's 32-bit lengths hold: the input was cut there.
  bool string_too_long() const { return string_too_long_; }
  // The scalar the last '0' placeholder stands for.
  std::string_view token() const { return token_; }
  // Consumes the rest of the input, checking only what simdjson checks over a whole document
  // before the simdjson reader looks at its first key: valid UTF-8, no control byte inside a
  // string, no string left open (its first stage), and a root object's last token its
  // closing brace (On-Demand's check for a truncated root). For a Chrome trace, which both
  // readers recognise from a key and do not parse further.
  bool RestPassesSimdjsonChecks();

 private:
  // After `taken` was consumed: string state, then the next byte.
  void Step(char taken) {
    ++taken_;
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (taken == '\\') {
        escaped_ = true;
      } else if (taken == '"') {
        in_string_ = false;
      }
      if (in_string_ && ++string_bytes_ > kMaxStringBytes) return TooLong();
    } else if (taken == '"') {
      in_string_ = true;
      string_bytes_ = 0;
    }
    Load();
  }
  // cur_ = the byte at p_; outside strings, a whitespace run becomes one space (RapidJSON
  // then skips one byte instead of a whole indentation) and a scalar a '0' placeholder.
  void Load() {
    if (p_ == end_ && !Fill()) return Cut();
    const char c = *p_;
    if (!in_string_) {
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') return SkipSpaces();
      if ((c >= '0' && c <= '9') || c == '-' || c == 'N' || c == 'I') return Lift();
    }
    cur_ = c;
    ++p_;
  }
  void SkipSpaces();  // p_ at a whitespace run: past it, cur_ = ' '
  void TooLong();     // a string longer than kMaxStringBytes: the input ends there
  bool Fill();        // p_ == end_: the next bytes; false at end of input or on an error
  bool ReadMore();    // Fill's reads from fd_
  void Lift();        // a scalar run starts at p_: into token_, p_ after it, cur_ = '0'
  void Cut();         // ends the input early

  std::string_view head_;
  std::unique_ptr<char[]> owner_;
  bool head_done_ = false;
  int fd_;
  std::unique_ptr<ReadAhead> ahead_;  // a regular file
  std::unique_ptr<char[]> buffer_;    // anything else
  const char* p_ = nullptr;           // the byte after cur_
  const char* end_ = nullptr;
  char cur_ = '\0';
  bool at_end_ = false;
  bool in_string_ = false;
  bool escaped_ = false;  // in a string, after a backslash
  bool string_too_long_ = false;
  int read_error_ = 0;
  size_t string_bytes_ = 0;  // of the current string
  size_t taken_ = 0;
  std::string token_;
};

}  // namespace proton::format
