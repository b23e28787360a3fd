// The core tests' JSON reader: RapidJSON's DOM (json_reader.cc) copied into a small value type,
// so tests can check the writers' output and rebuild the reference profiles' trees. Keeps
// integers and doubles apart and object keys in file order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proton::test {

struct Json {
  // Declared here and defaulted in the .cc: clang instantiates the implicit members while
  // std::pair<std::string, Json> is still incomplete and rejects the recursive type.
  Json();
  Json(const Json&);
  Json(Json&&) noexcept;
  Json& operator=(const Json&);
  Json& operator=(Json&&) noexcept;
  ~Json();
  enum class Type { kNull, kBool, kInt, kDouble, kString, kArray, kObject };
  Type type = Type::kNull;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  std::string s;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object;
  const Json* Find(std::string_view key) const {
    for (const auto& [k, v] : object) {
      if (k == key) return &v;
    }
    return nullptr;
  }
  const Json& operator[](std::string_view key) const;
};

// Parses `text`; on error returns false and sets `*error`.
bool ParseJson(std::string_view text, Json* out, std::string* error);
std::string ReadFile(const std::string& path);

}  // namespace proton::test
