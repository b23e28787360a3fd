// ShortCxxName (demangle.h): one left-to-right pass over libstdc++'s demangled text. Groups
// in <...>, (...) and [...] are dropped, whatever their nesting; the few places where those
// characters are part of a name (operator tokens, "(anonymous namespace)", "{lambda(...)#N}")
// are copied first. A space outside every group separates a return type from the name, so
// the name is what follows the last such space.
#include <cctype>
#include <string>
#include <string_view>

#include "viewer/names/demangle.h"

namespace proton::viewer {
namespace {

constexpr std::string_view kAnonymous = "(anonymous namespace)";
constexpr std::string_view kOperator = "operator";
// Overloadable operator tokens, longer ones first so that the longest one matches.
constexpr std::string_view kOperatorTokens[] = {
    "<=>", "->*", "<<=", ">>=", "()", "[]", "->", "<<", ">>", "<=", ">=", "==",   "!=", "&&",
    "||",  "++",  "--",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^=", "\"\"", "+",  "-",
    "*",   "/",   "%",   "^",   "&",  "|",  "~",  "!",  "=",  "<",  ">",  ","};
// Words after a parameter list that qualify the function rather than name it.
constexpr std::string_view kQualifiers[] = {"const", "volatile", "restrict", "noexcept", "throw"};

bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}

bool IsOpen(char c) { return c == '<' || c == '(' || c == '[' || c == '{'; }
bool IsClose(char c) { return c == '>' || c == ')' || c == ']' || c == '}'; }

size_t SkipGroup(std::string_view s, size_t i);

// The end of the "operator..." name starting at s[i], or npos when none starts there.
size_t OperatorEnd(std::string_view s, size_t i) {
  if (s.substr(i, kOperator.size()) != kOperator) return std::string_view::npos;
  if (i > 0 && IsIdentChar(s[i - 1])) return std::string_view::npos;  // "my_operator"
  size_t j = i + kOperator.size();
  if (j < s.size() && IsIdentChar(s[j])) return std::string_view::npos;  // "operators"
  if (j < s.size() && s[j] == ' ') {
    // "operator new[]", "operator delete", a conversion "operator unsigned int": up to the
    // parameter list, with any template arguments of the target type.
    while (j < s.size() && s[j] != '(') j = s[j] == '<' ? SkipGroup(s, j) : j + 1;
    return j;
  }
  for (std::string_view token : kOperatorTokens) {
    if (s.substr(j, token.size()) == token) return j + token.size();
  }
  return j;
}

// The index just past the group opened at s[i]: brackets of any kind nest, operator names
// inside (a template argument "&Foo::operator()") and "->" are not brackets. An unbalanced
// group runs to the end.
size_t SkipGroup(std::string_view s, size_t i) {
  int depth = 0;
  while (i < s.size()) {
    if (size_t end = OperatorEnd(s, i); end != std::string_view::npos) {
      i = end;
      continue;
    }
    const char c = s[i];
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '>') {
      i += 2;
      continue;
    }
    ++i;
    if (IsOpen(c)) ++depth;
    if (IsClose(c) && --depth == 0) return i;
  }
  return s.size();
}

// The length of the qualifier ("const", "&&", ...) starting at s[i], or 0.
size_t QualifierLength(std::string_view s, size_t i) {
  if (s[i] == '&') return s.substr(i, 2) == "&&" ? 2 : 1;
  for (std::string_view word : kQualifiers) {
    const size_t end = i + word.size();
    if (s.substr(i, word.size()) == word && (end == s.size() || !IsIdentChar(s[end]))) {
      return word.size();
    }
  }
  return 0;
}

}  // namespace

std::string ShortCxxName(std::string_view s) {
  std::string out;
  size_t name_start = 0;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    size_t end = OperatorEnd(s, i);
    if (end == std::string_view::npos && s.substr(i, kAnonymous.size()) == kAnonymous) {
      end = i + kAnonymous.size();
    }
    if (end == std::string_view::npos && c == '{') end = SkipGroup(s, i);  // lambda, unnamed
    if (end != std::string_view::npos) {
      out.append(s.substr(i, end - i));
      i = end;
    } else if (IsOpen(c)) {
      i = SkipGroup(s, i);  // template arguments, parameters, ABI tags, "[clone .cold]"
    } else if (c == ' ') {
      ++i;
      if (i == s.size() || s[i] == '<' || s[i] == '[' || s[i] == ' ') continue;
      if (const size_t q = QualifierLength(s, i); q > 0) {
        i += q;
        continue;
      }
      name_start = out.size();  // what came before was a return type
    } else {
      out += c;
      ++i;
    }
  }
  std::string name = out.substr(name_start);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  if (name.empty()) return std::string(s);
  return name;
}

}  // namespace proton::viewer
