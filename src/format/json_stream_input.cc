// See json_stream_input.h.
#include "format/json_stream_input.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace proton::format {

namespace {

// 1 MiB reads, of a regular file one ahead on a helper thread (read_ahead.h): large enough
// that the read() calls cost nothing next to the parse, small enough to keep out of the
// resident size.
constexpr size_t kChunk = size_t{1} << 20;
// The characters of a scalar token, as the fast path delimits them (json_fast_reader.cc).
bool IsTokenChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
         c == '+' || c == '.';
}

// UTF-8 validation a byte at a time (Unicode Table 3-7: no overlong forms, no surrogates,
// nothing above U+10FFFF).
class Utf8Checker {
 public:
  bool Step(unsigned char b) {
    if (need_ > 0) {
      if (b < lo_ || b > hi_) return false;
      lo_ = 0x80, hi_ = 0xBF, --need_;
      return true;
    }
    if (b < 0x80) return true;
    lo_ = 0x80, hi_ = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) return need_ = 1, true;
    if (b >= 0xE0 && b <= 0xEF) {
      if (b == 0xE0) lo_ = 0xA0;
      if (b == 0xED) hi_ = 0x9F;
      return need_ = 2, true;
    }
    if (b >= 0xF0 && b <= 0xF4) {
      if (b == 0xF0) lo_ = 0x90;
      if (b == 0xF4) hi_ = 0x8F;
      return need_ = 3, true;
    }
    return false;
  }
  bool complete() const { return need_ == 0; }

 private:
  int need_ = 0;
  unsigned char lo_ = 0x80, hi_ = 0xBF;
};

}  // namespace

JsonStreamInput::JsonStreamInput(std::string_view head, std::unique_ptr<char[]> owner, int fd)
    : head_(head), owner_(std::move(owner)), fd_(fd) {}

JsonStreamInput::~JsonStreamInput() = default;

void JsonStreamInput::Start(bool skip_bom) {
  if (!Fill()) {
    Cut();
    return;
  }
  // A byte-order mark split across the head and the file is not one: the head is always
  // either empty or at least as long as the sniffing that found the document JSON.
  if (skip_bom && end_ - p_ >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) p_ += 3;
  Load();
}

void JsonStreamInput::Cut() {
  cur_ = '\0';
  at_end_ = true;
  p_ = end_;
}

bool JsonStreamInput::Fill() {
  if (!head_done_) {
    head_done_ = true;
    if (!head_.empty()) {
      p_ = head_.data();
      end_ = p_ + head_.size();
      return true;
    }
  }
  owner_.reset();  // the head is consumed: its memory goes back
  return fd_ >= 0 && ReadMore();
}

bool JsonStreamInput::ReadMore() {
  if (ahead_ == nullptr && buffer_ == nullptr) {
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode))
      ahead_ = std::make_unique<ReadAhead>(fd_, kChunk, 0, 1);
    else
      buffer_.reset(new char[kChunk]);
  }
  if (ahead_ == nullptr) {
    // A pipe or a terminal: no reading ahead, so that a reader done early (a syntax error)
    // never waits on a writer that keeps its end open.
    ssize_t got;
    do {
      got = ::read(fd_, buffer_.get(), kChunk);
    } while (got < 0 && errno == EINTR);
    if (got <= 0) {
      if (got < 0) read_error_ = errno;
      fd_ = -1;
      return false;
    }
    p_ = buffer_.get();
    end_ = p_ + got;
    return true;
  }
  const ReadAhead::Span span = ahead_->Next(nullptr, 0);
  if (span.error) {
    read_error_ = span.error_number != 0 ? span.error_number : EIO;
    fd_ = -1;
    return false;
  }
  if (span.eof) fd_ = -1;  // ReadAhead must not be asked again
  p_ = span.begin;
  end_ = span.end;
  return p_ != end_ || (fd_ >= 0 && ReadMore());
}

void JsonStreamInput::Lift() {
  token_.clear();
  for (;;) {
    const char* s = p_;
    while (p_ != end_ && IsTokenChar(*p_)) ++p_;
    token_.append(s, static_cast<size_t>(p_ - s));
    // The run may go on in the next chunk; at the end of the input it simply ends.
    if (p_ != end_ || !Fill()) break;
  }
  cur_ = '0';
}

bool JsonStreamInput::RestPassesSimdjsonChecks() {
  Utf8Checker utf8;
  char last = '\0';  // the last byte that is not JSON whitespace
  // cur_ is a byte already loaded, or a placeholder for ASCII bytes already consumed.
  for (char c = cur_; !at_end_;) {
    if (!utf8.Step(static_cast<unsigned char>(c))) return false;
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') last = c;
    if (in_string_ && static_cast<unsigned char>(c) < 0x20) return false;
    // simdjson finds escapes before strings: a backslash escapes the next byte inside and
    // outside strings alike, so an escaped quote never opens or closes one.
    if (escaped_) {
      escaped_ = false;
    } else if (c == '\\') {
      escaped_ = true;
    } else if (c == '"') {
      in_string_ = !in_string_;
    }
    if (p_ == end_ && !Fill()) break;
    c = *p_++;
  }
  return utf8.complete() && !in_string_ && read_error_ == 0 && last == '}';
}

void JsonStreamInput::SkipSpaces() {
  for (;;) {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    if (p_ != end_ || !Fill()) break;
  }
  cur_ = ' ';
}

void JsonStreamInput::TooLong() {
  string_too_long_ = true;
  Cut();  // RapidJSON then fails on the missing closing quote
}

}  // namespace proton::format
