// Shared by the JSON and MessagePack readers: failure classes, scalar values, the device
// table fields, and the error messages of viewer.md §9.2.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tree/profile_tree.h"
#include "util/status.h"

namespace proton::format {

// Why a document was rejected; the message is chosen by ReadFailError.
enum class ReadFail { kNone, kRead, kShape, kChrome };

#define PROTON_READ_TRY(expr)                                               \
  do {                                                                      \
    ::proton::format::ReadFail proton_rf_ = (expr);                         \
    if (proton_rf_ != ::proton::format::ReadFail::kNone) return proton_rf_; \
  } while (0)

// A scalar read from either format. type == kAbsent means malformed.
struct TokenValue {
  tree::ValueType type = tree::ValueType::kAbsent;
  int64_t i = 0;
  double d = 0;
  std::string_view text;  // kString: the string; numbers: their text (for a numeric arch)
};

inline bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// A raw JSON token without the whitespace after it (JSON's four whitespace bytes).
inline std::string_view TrimRightJsonSpace(std::string_view s) {
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// Reserves the tree for a JSON document of `size` bytes. A node takes at least ~21 bytes of
// JSON, Proton's pretty-printed ones ~1 KB: reserve for compact files; the untouched rest of
// the reservation costs no memory.
inline void ReserveForJson(tree::ProfileTree& tree, size_t size) {
  tree.Reserve(size / 64 + 16, size / 16 + 64);
}

// Stores a scalar metric value (not kString/kArray/kObject, which callers set directly).
void SetTokenValue(tree::ProfileTree& tree, tree::NodeId n, std::string_view key,
                   const TokenValue& t);
// One field of a device entry: arch (string, or a number kept as its text) and the four
// numeric fields; other keys and wrong types leave the field absent.
void SetDeviceField(tree::DeviceInfo& info, std::string_view field, const TokenValue& t);
// Adds (or, for a repeated type/index, replaces) a device.
void AddDevice(tree::DeviceTable& table, std::string device_type, std::string index,
               tree::DeviceInfo info);

// The message of a failed read (`fail` is never kNone).
Error ReadFailError(ReadFail fail, std::string_view display_name);

}  // namespace proton::format
