// Test JSON reader; see json_reader.h. A thin adapter over RapidJSON's DOM (the library the
// profile reader streams with, src/format/json_stream_reader.cc), so the tests check the
// writers against a real parser instead of one of their own. The copy into Json recurses:
// only for small test fixtures.
#include "core/testing/json_reader.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace proton::test {
namespace {

// Iterative parse (no recursion on depth), doubles correctly rounded as strtod does, and
// NaN/Infinity/-Infinity accepted as Python's json module and the profile readers accept them.
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag |
                                 rapidjson::kParseFullPrecisionFlag |
                                 rapidjson::kParseNanAndInfFlag;

void Copy(const rapidjson::Value& v, Json* out) {
  if (v.IsNull()) return;
  if (v.IsBool()) {
    out->type = Json::Type::kBool;
    out->b = v.GetBool();
  } else if (v.IsInt64() || v.IsUint64()) {
    // An integer above INT64_MAX keeps its bits, so static_cast<uint64_t>(i) gives it back.
    out->type = Json::Type::kInt;
    out->i = v.IsInt64() ? v.GetInt64() : static_cast<int64_t>(v.GetUint64());
  } else if (v.IsNumber()) {
    out->type = Json::Type::kDouble;
    out->d = v.GetDouble();
  } else if (v.IsString()) {
    out->type = Json::Type::kString;
    out->s.assign(v.GetString(), v.GetStringLength());
  } else if (v.IsArray()) {
    out->type = Json::Type::kArray;
    out->array.resize(v.Size());
    for (rapidjson::SizeType k = 0; k < v.Size(); ++k) Copy(v[k], &out->array[k]);
  } else {
    out->type = Json::Type::kObject;
    out->object.reserve(v.MemberCount());
    for (const auto& m : v.GetObject()) {
      out->object.emplace_back(std::string(m.name.GetString(), m.name.GetStringLength()), Json());
      Copy(m.value, &out->object.back().second);
    }
  }
}

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
  rapidjson::Document doc;
  doc.Parse<kParseFlags>(text.data(), text.size());
  if (doc.HasParseError()) {
    *error = "bad JSON at byte " + std::to_string(doc.GetErrorOffset()) + ": " +
             rapidjson::GetParseError_En(doc.GetParseError());
    return false;
  }
  *out = Json();
  Copy(doc, out);
  return true;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace proton::test
