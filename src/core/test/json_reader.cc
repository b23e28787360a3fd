// Test JSON reader; see json_reader.h. Recursive: only for small test fixtures.
#include "core/test/json_reader.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace proton::test {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view t) : t_(t) {}
  bool Parse(Json* out, std::string* error) {
    if (!Value(out) || (Ws(), pos_ != t_.size())) {
      *error = "bad JSON at byte " + std::to_string(pos_);
      return false;
    }
    return true;
  }

 private:
  void Ws() {
    while (pos_ < t_.size() &&
           (t_[pos_] == ' ' || t_[pos_] == '\n' || t_[pos_] == '\t' || t_[pos_] == '\r'))
      ++pos_;
  }
  bool Lit(std::string_view w) {
    if (t_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  bool String(std::string* out) {
    if (pos_ >= t_.size() || t_[pos_] != '"') return false;
    ++pos_;
    while (pos_ < t_.size() && t_[pos_] != '"') {
      char c = t_[pos_++];
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      char e = t_[pos_++];
      switch (e) {
        case 'n': out->push_back('\n'); break;
        case 't': out->push_back('\t'); break;
        case 'r': out->push_back('\r'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'u': {
          unsigned v = static_cast<unsigned>(
              std::strtoul(std::string(t_.substr(pos_, 4)).c_str(), nullptr, 16));
          pos_ += 4;
          if (v < 0x80) {
            out->push_back(static_cast<char>(v));
          } else if (v < 0x800) {
            out->push_back(static_cast<char>(0xc0 | (v >> 6)));
            out->push_back(static_cast<char>(0x80 | (v & 0x3f)));
          } else {
            out->push_back(static_cast<char>(0xe0 | (v >> 12)));
            out->push_back(static_cast<char>(0x80 | ((v >> 6) & 0x3f)));
            out->push_back(static_cast<char>(0x80 | (v & 0x3f)));
          }
          break;
        }
        default: out->push_back(e);
      }
    }
    ++pos_;
    return true;
  }
  bool Value(Json* out) {
    Ws();
    if (pos_ >= t_.size()) return false;
    const char first = t_[pos_];
    if (first == '{') return Object(out);
    if (first == '[') return Array(out);
    if (first == '"') {
      out->type = Json::Type::kString;
      return String(&out->s);
    }
    if (Lit("null")) return true;
    if (Lit("true")) return out->type = Json::Type::kBool, out->b = true, true;
    if (Lit("false")) return out->type = Json::Type::kBool, true;
    return Number(out);
  }
  bool Object(Json* out) {
    out->type = Json::Type::kObject;
    ++pos_;
    Ws();
    if (t_[pos_] == '}') return ++pos_, true;
    while (true) {
      Ws();
      std::string key;
      if (!String(&key)) return false;
      Ws();
      if (!Lit(":")) return false;
      Json member;
      if (!Value(&member)) return false;
      out->object.emplace_back(std::move(key), std::move(member));
      Ws();
      if (Lit(",")) continue;
      return Lit("}");
    }
  }
  bool Array(Json* out) {
    out->type = Json::Type::kArray;
    ++pos_;
    Ws();
    if (t_[pos_] == ']') return ++pos_, true;
    while (true) {
      Json element;
      if (!Value(&element)) return false;
      out->array.push_back(std::move(element));
      Ws();
      if (Lit(",")) continue;
      return Lit("]");
    }
  }
  bool Number(Json* out) {
    size_t start = pos_;
    bool is_double = false;
    while (pos_ < t_.size() &&
           std::string_view("+-0123456789.eE").find(t_[pos_]) != std::string_view::npos) {
      if (t_[pos_] == '.' || t_[pos_] == 'e' || t_[pos_] == 'E') is_double = true;
      ++pos_;
    }
    if (pos_ == start) return false;
    std::string number(t_.substr(start, pos_ - start));
    if (is_double) {
      out->type = Json::Type::kDouble;
      out->d = std::strtod(number.c_str(), nullptr);
    } else {
      out->type = Json::Type::kInt;
      out->i = std::strtoll(number.c_str(), nullptr, 10);
    }
    return true;
  }
  std::string_view t_;
  size_t pos_ = 0;
};

}  // namespace

Json::Json() = default;
Json::Json(const Json&) = default;
Json::Json(Json&&) noexcept = default;
Json& Json::operator=(const Json&) = default;
Json& Json::operator=(Json&&) noexcept = default;
Json::~Json() = default;

const Json& Json::operator[](std::string_view key) const {
  const Json* v = Find(key);
  if (v == nullptr) throw std::runtime_error("missing key " + std::string(key));
  return *v;
}

bool ParseJson(std::string_view text, Json* out, std::string* error) {
  return Parser(text).Parse(out, error);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace proton::test
