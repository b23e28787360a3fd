// The JSON entry (json_reader.h): the rule that picks the reader, its knobs, and the scalar
// token classification that all three readers share.
#include "format/json_reader.h"

#include <simdjson.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "format/json_fast_reader.h"
#include "format/json_simdjson_reader.h"
#include "format/json_stream_reader.h"
#include "format/mapped_file.h"
#include "format/reader_common.h"
#include "format/sniff.h"

namespace proton::format {

using tree::ProfileTree;
using tree::ValueType;

namespace {

// JSON number grammar check; sets is_int when there is no fraction and no exponent.
bool IsJsonNumber(std::string_view t, bool& is_int) {
  size_t i = 0;
  if (i < t.size() && t[i] == '-') ++i;
  if (i >= t.size()) return false;
  if (t[i] == '0') {
    ++i;
  } else if (t[i] >= '1' && t[i] <= '9') {
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  } else {
    return false;
  }
  is_int = true;
  if (i < t.size() && t[i] == '.') {
    is_int = false;
    ++i;
    const size_t s = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    if (i == s) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    is_int = false;
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    const size_t s = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    if (i == s) return false;
  }
  return i == t.size();
}

}  // namespace

// A scalar token: number (incl. NaN/Infinity/-Infinity), true/false or null. Strings,
// arrays and objects are not classified here. kAbsent = malformed.
TokenValue ClassifyJsonToken(std::string_view tok) {
  TokenValue r;
  tok = TrimRightJsonSpace(tok);
  r.text = tok;
  // Numbers (the common case) skip the keyword checks.
  const bool numeric_start =
      !tok.empty() && ((tok[0] >= '0' && tok[0] <= '9') || (tok[0] == '-' && tok != "-Infinity"));
  if (!numeric_start) {
    if (tok == "null") return r.type = ValueType::kNull, r;
    if (tok == "true" || tok == "false") return r.type = ValueType::kBool, r;
    if (tok == "NaN")
      return r.type = ValueType::kDouble, r.d = std::numeric_limits<double>::quiet_NaN(), r;
    if (tok == "Infinity") return r.type = ValueType::kDouble, r.d = HUGE_VAL, r;
    if (tok == "-Infinity") return r.type = ValueType::kDouble, r.d = -HUGE_VAL, r;
    return r;
  }
  bool is_int = false;
  if (!IsJsonNumber(tok, is_int)) return r;
  const char* b = tok.data();
  const char* e = b + tok.size();
  if (is_int) {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec == std::errc() && p == e) {
      r.type = ValueType::kInt;
      r.i = v;
      r.d = static_cast<double>(v);
      return r;
    }
  }
  auto [p, ec] = std::from_chars(b, e, r.d);
  if (ec == std::errc::result_out_of_range) {
    // Python gives +-inf for overflow and +-0.0 for underflow.
    const char* ex = std::find_if(b, e, [](char c) { return c == 'e' || c == 'E'; });
    const bool neg = *b == '-';
    const bool big = ex == e || ex[1] != '-';
    r.d = big ? (neg ? -HUGE_VAL : HUGE_VAL) : (neg ? -0.0 : 0.0);
  } else if (ec != std::errc() || p != e) {
    return r;
  }
  r.type = ValueType::kDouble;
  return r;
}

namespace {

// Below simdjson's maximum by the padding, which it counts in the document's capacity.
constexpr size_t kDefaultStreamThreshold =
    simdjson::SIMDJSON_MAXSIZE_BYTES - simdjson::SIMDJSON_PADDING;

size_t ThresholdFromEnvironment() {
  const char* v = std::getenv("PROTON_JSON_STREAM_ABOVE");
  if (v == nullptr || *v == '\0') return kDefaultStreamThreshold;
  size_t bytes = 0;
  const char* end = v + std::strlen(v);
  const auto [p, ec] = std::from_chars(v, end, bytes);
  if (ec != std::errc() || p != end) return kDefaultStreamThreshold;  // not a number: ignored
  return std::min(bytes, kDefaultStreamThreshold);
}

bool FastPathFromEnvironment() {
  const char* v = std::getenv("PROTON_JSON_FAST_PATH");
  return v == nullptr || std::strcmp(v, "0") != 0;
}

std::atomic<size_t> g_stream_threshold{ThresholdFromEnvironment()};
std::atomic<bool> g_fast_path{FastPathFromEnvironment()};

}  // namespace

size_t JsonStreamThreshold() { return g_stream_threshold.load(std::memory_order_relaxed); }

bool JsonFastPathEnabled() { return g_fast_path.load(std::memory_order_relaxed); }

void SetJsonReadersForTest(size_t stream_threshold, bool fast_path) {
  g_stream_threshold.store(std::min(stream_threshold, kDefaultStreamThreshold),
                           std::memory_order_relaxed);
  g_fast_path.store(fast_path, std::memory_order_relaxed);
}

void ResetJsonReadersForTest() {
  SetJsonReadersForTest(ThresholdFromEnvironment(), FastPathFromEnvironment());
}

ReadFail ParseJson(const char* data, size_t size, size_t capacity, ProfileTree& tree,
                   bool allow_fast) {
  if (capacity < size + simdjson::SIMDJSON_PADDING) return ReadFail::kRead;
  size_t i = 0;
  while (i < size && IsAsciiSpace(data[i])) ++i;
  if (i >= size) return ReadFail::kRead;
  const bool object = data[i] == '{';
  if (allow_fast && JsonFastPathEnabled() && !object && data[size] == '\0') {
    ReserveForJson(tree, size);
    if (ParseJsonFast(data, size, tree)) return ReadFail::kNone;
    tree = ProfileTree();  // the readers below decide every unusual document
  }
  const std::string_view text(data, size);
  if (size > JsonStreamThreshold()) return ParseJsonStream(text, tree);
  ReadFail fail = ReadFail::kRead;
  if (ParseJsonSimdjson(data, size, capacity, object, tree, fail)) return fail;
  return ParseJsonStream(text, tree);  // short of memory for simdjson's index
}

ReadFail ParseJsonInput(const char* data, size_t size, size_t capacity, ProfileTree& tree,
                        bool allow_fast) {
  const size_t i = size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  return ParseJson(data + i, size - i, capacity - i, tree, allow_fast);
}

ReadFail ReadJsonFile(int fd, size_t size, ProfileTree& tree, int& read_errno) {
  read_errno = 0;
  if (JsonFastPathEnabled() && ReadJsonFast(fd, size, tree)) return ReadFail::kNone;
  tree = ProfileTree();  // whatever the fast path built before it gave up
  if (::lseek(fd, 0, SEEK_SET) != 0) {
    read_errno = errno;
    return ReadFail::kRead;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && static_cast<size_t>(st.st_size) > size)
    size = static_cast<size_t>(st.st_size);  // it grew while the fast path read it
  if (size <= JsonStreamThreshold()) {
    MappedFile map;
    if (map.Map(fd, size)) {
      if (SniffFormat(map.data(), map.size()) != Sniff::kJson) return ReadFail::kRead;
      // The in-memory fast path would stop where the streamed one did.
      return ParseJsonInput(map.data(), map.size(), map.capacity(), tree, /*allow_fast=*/false);
    }
  }
  // Over the threshold, or mapping failed (address space short, some special file systems).
  return ReadJsonStream({}, nullptr, fd, size, tree, read_errno);
}

}  // namespace proton::format
