// See name_pattern.h. The translator walks the Python pattern once: escapes are rewritten to
// PCRE2 forms with the same meaning (\Z -> \z, \v -> \x0b, \uXXXX -> \x{XXXX}, octal and
// group references made explicit), character-class contents are escaped so that PCRE2-only
// syntax ([:alpha:]) stays literal as in Python, and group openers are checked against the
// constructs Python 3.11 accepts. PCRE2 then compiles with PCRE2_ANCHORED (match at position
// 0 only, no end anchor), which is exactly re.match.
#define PCRE2_CODE_UNIT_WIDTH 8
#include "viewer/names/name_pattern.h"

#include <pcre2.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "viewer/common/quoted.h"

namespace proton::viewer {
namespace {

constexpr std::string_view kBad = "bad";  // the translator's error text (replaced by caller)

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool IsOct(char c) { return c >= '0' && c <= '7'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

void AppendCodePoint(std::string& out, unsigned long cp) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "\\x{%lx}", cp);
  out += buf;
}

class Translator {
 public:
  explicit Translator(std::string_view p) : p_(p) {}

  Result<std::string> Run() {
    while (i_ < p_.size()) {
      const char c = p_[i_];
      // "\B*" is "nothing to repeat" in Python; our \B is a group PCRE2 would repeat.
      const bool quantifier = c == '*' || c == '+' || c == '?';
      if (quantifier && (after_b_ || (after_quantifier_ && comment_since_))) {
        return Bad();  // Python: "nothing to repeat" / "multiple repeat"
      }
      if (p_.substr(i_, 3) == "(?#") {  // a comment is not an item: skip it, keep the flags
        const size_t end = p_.find(')', i_);
        if (end == std::string_view::npos) return Bad();
        i_ = end + 1;
        comment_since_ = true;
        continue;
      }
      after_b_ = false;
      after_quantifier_ = quantifier;
      comment_since_ = false;
      if (c == '\\') {
        PROTON_RETURN_IF_ERROR(Escape(/*in_class=*/false));
      } else if (c == '[') {
        PROTON_RETURN_IF_ERROR(Class());
      } else if (c == '(') {
        PROTON_RETURN_IF_ERROR(OpenGroup());
      } else if (c == ')') {
        if (open_.empty()) return Bad();
        open_.pop_back();
        open_names_.pop_back();
        out_ += ')';
        ++i_;
        item_seen_ = true;
      } else if (c == '{' || c == '}') {
        // Never a quantifier here (a '{' followed by '}' was refused before): a literal.
        out_ += '\\';
        out_ += c;
        ++i_;
        item_seen_ = true;
      } else {
        if (c == '|' && open_.empty()) top_alternation_ = true;
        out_ += c;
        ++i_;
        item_seen_ = true;
      }
    }
    if (!open_.empty()) return Bad();
    return std::move(out_);
  }

 private:
  static Error Bad() { return Status::Error(std::string(kBad)); }

  // Reads exactly n hex digits after position i_; returns false when there are fewer.
  bool ReadHex(size_t n, unsigned long& value) {
    if (i_ + n > p_.size()) return false;
    value = 0;
    for (size_t k = 0; k < n; ++k) {
      if (!IsHex(p_[i_ + k])) return false;
      const char h = p_[i_ + k];
      value = value * 16 + static_cast<unsigned long>(IsDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    i_ += n;
    return true;
  }

  // Escapes that stand for one fixed PCRE2 text in and out of a class, or nullptr.
  static const char* FixedEscape(char c) {
    switch (c) {
      case 'a': return "\\x07";
      case 'f': return "\\f";
      case 'n': return "\\n";
      case 'r': return "\\r";
      case 't': return "\\t";
      case 'v': return "\\x0b";  // PCRE2's \v is a class
      default: return nullptr;
    }
  }

  // \xHH, \uHHHH, \UHHHHHHHH after the letter c was read: one Unicode scalar value.
  Status CodePointEscape(char c) {
    unsigned long cp = 0;
    if (!ReadHex(c == 'x' ? 2 : c == 'u' ? 4 : 8, cp)) return Bad();
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return Bad();
    AppendCodePoint(out_, cp);
    return Status();
  }

  // A backslash escape at p_[i_] == '\\', inside or outside a character class.
  Status Escape(bool in_class) {
    ++i_;
    if (i_ >= p_.size()) return Bad();  // trailing backslash
    const char c = p_[i_++];
    item_seen_ = true;
    if (const char* fixed = FixedEscape(c)) {
      out_ += fixed;
      return Status();
    }
    switch (c) {
      case 'd':
      case 'D':
      case 's':
      case 'S':
      case 'w':
      case 'W':
        out_ += '\\';
        out_ += c;
        return Status();
      case 'A':
        if (in_class) return Bad();
        out_ += "\\A";
        return Status();
      case 'B':
        if (in_class) return Bad();
        // Python's \B never matches in an empty string (PCRE2's does).
        out_ += "(?:(?!\\A\\z)\\B)";
        after_b_ = true;
        return Status();
      case 'b': out_ += in_class ? "\\x08" : "\\b"; return Status();
      case 'Z':
        if (in_class) return Bad();
        out_ += "\\z";  // Python's \Z is the very end (PCRE2's \z)
        return Status();
      case 'x':
      case 'u':
      case 'U': return CodePointEscape(c);
      default: break;
    }
    if (IsDigit(c)) return Numeric(c, in_class);
    if (IsAsciiLetter(c)) return Bad();  // Python: bad escape (incl. \N without {name})
    // Any other character stands for itself.
    if (static_cast<unsigned char>(c) < 0x80) {
      if (c == '\n') {
        out_ += "\\n";
      } else {
        out_ += '\\';
        out_ += c;
      }
    } else {
      out_ += c;  // first byte of a UTF-8 sequence: the rest follows as plain bytes
    }
    return Status();
  }

  // \0.., \1.. (octal escape or group reference) after the digit c was read.
  Status Numeric(char c, bool in_class) {
    if (c == '0') {
      unsigned long v = 0;
      for (int k = 0; k < 2 && i_ < p_.size() && IsOct(p_[i_]); ++k) v = v * 8 + (p_[i_++] - '0');
      AppendCodePoint(out_, v);
      return Status();
    }
    if (in_class) {
      if (!IsOct(c)) return Bad();
      unsigned long v = static_cast<unsigned long>(c - '0');
      for (int k = 0; k < 2 && i_ < p_.size() && IsOct(p_[i_]); ++k) v = v * 8 + (p_[i_++] - '0');
      if (v > 0377) return Bad();
      AppendCodePoint(out_, v);
      return Status();
    }
    // Outside a class: three octal digits make an octal escape, otherwise a group number.
    if (IsOct(c) && i_ + 1 < p_.size() && IsOct(p_[i_]) && IsOct(p_[i_ + 1])) {
      const int octal = (c - '0') * 64 + (p_[i_] - '0') * 8 + (p_[i_ + 1] - '0');
      unsigned long v = static_cast<unsigned long>(octal);
      i_ += 2;
      if (v > 0377) return Bad();
      AppendCodePoint(out_, v);
      return Status();
    }
    int group = c - '0';
    if (i_ < p_.size() && IsDigit(p_[i_])) group = group * 10 + (p_[i_++] - '0');
    if (group > groups_) return Bad();  // invalid group reference
    for (int g : open_) {
      if (g == group) return Bad();  // cannot refer to an open group
    }
    out_ += "\\g{" + std::to_string(group) + "}";
    return Status();
  }

  // A character class starting at p_[i_] == '['.
  Status Class() {
    out_ += '[';
    ++i_;
    if (i_ < p_.size() && p_[i_] == '^') {
      out_ += '^';
      ++i_;
    }
    bool first = true;
    while (true) {
      if (i_ >= p_.size()) return Bad();  // unterminated character set
      const char c = p_[i_];
      if (c == ']' && !first) {
        out_ += ']';
        ++i_;
        break;
      }
      first = false;
      if (c == '\\') {
        PROTON_RETURN_IF_ERROR(Escape(/*in_class=*/true));
      } else if (c == '[' || c == ']') {
        out_ += '\\';  // '[' is a plain character in Python ("[:alpha:]" is not special)
        out_ += c;
        ++i_;
      } else {
        out_ += c;
        ++i_;
      }
    }
    item_seen_ = true;
    return Status();
  }

  // A '(' at p_[i_]: plain group or a (?...) construct Python 3.11 accepts.
  Status OpenGroup() {
    ++i_;
    if (i_ < p_.size() && p_[i_] == '*') return Bad();  // "(*VERB)" is PCRE2-only
    if (i_ >= p_.size() || p_[i_] != '?') {
      open_.push_back(++groups_);
      open_names_.emplace_back();
      out_ += '(';
      return Status();
    }
    ++i_;
    if (i_ >= p_.size()) return Bad();
    const char c = p_[i_];
    if (c == ':' || c == '=' || c == '!' || c == '>') {
      open_.push_back(0);
      open_names_.emplace_back();
      out_ += "(?";
      out_ += c;
      ++i_;
      return Status();
    }
    if (c == '<' && i_ + 1 < p_.size() && (p_[i_ + 1] == '=' || p_[i_ + 1] == '!')) {
      open_.push_back(0);
      open_names_.emplace_back();
      out_ += "(?<";
      out_ += p_[i_ + 1];
      i_ += 2;
      return Status();
    }
    if (c == 'P') return NamedGroup();
    return Flags();
  }

  // (?P<name>...) or (?P=name).
  Status NamedGroup() {
    ++i_;
    if (i_ >= p_.size()) return Bad();
    const char kind = p_[i_];
    const char close = kind == '<' ? '>' : ')';
    if (kind != '<' && kind != '=') return Bad();
    ++i_;
    size_t end = p_.find(close, i_);
    if (end == std::string_view::npos || end == i_) return Bad();
    std::string_view name = p_.substr(i_, end - i_);
    // An ASCII identifier (Python also allows non-ASCII identifiers; PCRE2 does not).
    if (IsDigit(name[0])) return Bad();
    for (char ch : name) {
      if (!(IsAsciiLetter(ch) || IsDigit(ch) || ch == '_')) return Bad();
    }
    i_ = end + 1;
    if (kind == '<') {
      for (const std::string& n : names_) {
        if (n == name) return Bad();  // redefinition of group name
      }
      names_.emplace_back(name);
      open_.push_back(++groups_);
      open_names_.emplace_back(name);
      out_ += "(?P<";
      out_ += name;
      out_ += '>';
    } else {
      bool known = false;
      for (const std::string& n : names_) known = known || n == name;
      if (!known) return Bad();
      for (const std::string& n : open_names_) {
        if (n == name) return Bad();  // cannot refer to an open group
      }
      out_ += "(?P=";
      out_ += name;
      out_ += ')';
      item_seen_ = true;
    }
    return Status();
  }

  // Inline flags: (?imsu) at the very start, or scoped (?imsu-ims:...). 'a', 'L' and 'x'
  // are refused (ASCII mode and verbose mode are not supported).
  Status Flags() {
    std::string on, off;
    bool minus = false;
    while (i_ < p_.size()) {
      const char c = p_[i_];
      if (c == 'i' || c == 'm' || c == 's' || c == 'u') {
        std::string& set = minus ? off : on;
        if (set.find(c) != std::string::npos) return Bad();
        if (minus && c == 'u') return Bad();
        if (c != 'u') set += c;
        ++i_;
      } else if (c == '-' && !minus) {
        minus = true;
        ++i_;
      } else {
        break;
      }
    }
    if (i_ >= p_.size()) return Bad();
    const char c = p_[i_++];
    if (c == ')') {
      if (on.empty() && !minus) return Bad();  // "(?)"
      // Global flags: only at the start of the expression, and never with '-'.
      if (minus || item_seen_ || !open_.empty() || top_alternation_) return Bad();
      if (!on.empty()) out_ += "(?" + on + ")";
      return Status();
    }
    if (c != ':') return Bad();
    if (minus && off.empty()) return Bad();
    for (char f : on) {
      if (off.find(f) != std::string::npos) return Bad();
    }
    open_.push_back(0);
    open_names_.emplace_back();
    out_ += "(?" + on + (minus ? "-" + off : "") + ":";
    return Status();
  }

  std::string_view p_;
  size_t i_ = 0;
  std::string out_;
  int groups_ = 0;
  std::vector<int> open_;  // open groups: capture number, or 0 for non-capturing
  std::vector<std::string> names_;
  std::vector<std::string> open_names_;  // parallel to open_: the group's name or ""
  bool item_seen_ = false;
  bool after_b_ = false;           // the last item was \B
  bool after_quantifier_ = false;  // the last character was * + or ?
  bool comment_since_ = false;     // a (?#...) comment followed it
  bool top_alternation_ = false;
};

}  // namespace

Result<std::string> TranslatePythonRegex(std::string_view pattern) {
  return Translator(pattern).Run();
}

struct NamePattern::Impl {
  pcre2_code* code = nullptr;
  pcre2_match_data* match_data = nullptr;
  pcre2_match_context* match_context = nullptr;
  pcre2_jit_stack* jit_stack = nullptr;
  bool jit = false;
  std::string quoted;                           // "--include 'P'", for error messages
  uint64_t budget = NamePattern::kBudgetSteps;  // steps left beyond the free ones
  ~Impl() {
    if (match_data) pcre2_match_data_free(match_data);
    if (match_context) pcre2_match_context_free(match_context);
    if (jit_stack) pcre2_jit_stack_free(jit_stack);
    if (code) pcre2_code_free(code);
  }
};

NamePattern::NamePattern(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NamePattern::NamePattern(NamePattern&&) noexcept = default;
NamePattern& NamePattern::operator=(NamePattern&&) noexcept = default;
NamePattern::~NamePattern() = default;

Result<NamePattern> NamePattern::Compile(std::string_view pattern, std::string_view option) {
  const std::string quoted = std::string(option) + ": '" + std::string(pattern) + "'";
  if (size_t open = pattern.find('{');
      open != std::string_view::npos && pattern.find('}', open + 1) != std::string_view::npos) {
    return Status::Error("curly braces are not supported in " + quoted);
  }
  if (pattern.find('"') != std::string_view::npos) {
    return Status::Error("double quotes are not supported in " + quoted);
  }
  const Error invalid = Status::Error("invalid regular expression in " + quoted);
  Result<std::string> translated = TranslatePythonRegex(pattern);
  if (!translated.ok()) return invalid;

  auto impl = std::make_unique<Impl>();
  impl->quoted = std::string(option) + " " + Quoted(pattern);
  pcre2_compile_context* cctx = pcre2_compile_context_create(nullptr);
  if (cctx == nullptr) return Status::Error("out of memory");
  pcre2_set_newline(cctx, PCRE2_NEWLINE_LF);
  int error_code = 0;
  PCRE2_SIZE error_offset = 0;
  impl->code = pcre2_compile(
      reinterpret_cast<PCRE2_SPTR>(translated->data()), translated->size(),
      PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED | PCRE2_MATCH_INVALID_UTF | PCRE2_NEVER_BACKSLASH_C,
      &error_code, &error_offset, cctx);
  pcre2_compile_context_free(cctx);
  if (impl->code == nullptr) return invalid;
  impl->match_data = pcre2_match_data_create_from_pattern(impl->code, nullptr);
  impl->match_context = pcre2_match_context_create(nullptr);
  if (impl->match_data == nullptr || impl->match_context == nullptr) {
    return Status::Error("out of memory");
  }
  // The interpreter (no JIT, or the JIT stack ran out) needs its own bounds on recursion
  // depth and backtracking memory; the JIT's are its stack size and the match limit.
  pcre2_set_depth_limit(impl->match_context, 1'000'000);
  pcre2_set_heap_limit(impl->match_context, 256 * 1024);  // KiB
  if (pcre2_jit_compile(impl->code, PCRE2_JIT_COMPLETE) == 0) {
    impl->jit_stack = pcre2_jit_stack_create(size_t{32} * 1024, size_t{8} * 1024 * 1024, nullptr);
    if (impl->jit_stack != nullptr) {
      pcre2_jit_stack_assign(impl->match_context, nullptr, impl->jit_stack);
      impl->jit = true;
    }
  }
  return NamePattern(std::move(impl));
}

namespace {

// One pcre2_match at position 0 under `limit` steps; falls back to the interpreter when the
// JIT stack is too small for this subject.
int MatchOnce(pcre2_code* code, pcre2_match_data* data, pcre2_match_context* context,
              std::string_view name, uint32_t limit) {
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(name.data());
  pcre2_set_match_limit(context, limit);
  int rc = pcre2_match(code, subject, name.size(), 0, 0, data, context);
  if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
    rc = pcre2_match(code, subject, name.size(), 0, PCRE2_NO_JIT, data, context);
  }
  return rc;
}

}  // namespace

Result<bool> NamePattern::Matches(std::string_view name) {
  Impl& m = *impl_;
  // The free steps first; on the match limit, again with ten times the limit, each retry
  // paid from the budget, so what a name costs is at most about 1.1 x what it is charged.
  uint64_t limit = kFreeSteps;
  int rc = MatchOnce(m.code, m.match_data, m.match_context, name, kFreeSteps);
  while (rc == PCRE2_ERROR_MATCHLIMIT && m.budget > 0) {
    limit = std::min<uint64_t>({limit * 10, m.budget, UINT32_MAX});
    m.budget -= limit;
    rc = MatchOnce(m.code, m.match_data, m.match_context, name, static_cast<uint32_t>(limit));
  }
  if (rc >= 0) return true;
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  std::string reason;
  if (rc == PCRE2_ERROR_MATCHLIMIT) {
    reason = "too much backtracking (over " + std::to_string(kBudgetSteps) + " steps)";
  } else {
    PCRE2_UCHAR text[256];
    if (pcre2_get_error_message(rc, text, sizeof text) < 0)
      reason = "error " + std::to_string(rc);
    else
      reason = reinterpret_cast<const char*>(text);
  }
  return Status::Error("cannot match " + m.quoted + " against frame " + Quoted(name) + ": " +
                       reason);
}

}  // namespace proton::viewer
