// Telling JSON from MessagePack by the first bytes of a document (viewer.md §3.1).
#pragma once

#include <cstddef>

namespace proton::format {

// What the first bytes of a document say about its format: kMore while they could still
// begin a profile but do not decide it yet.
enum class Sniff { kMore, kJson, kMsgpack, kNeither };

// Leading whitespace (after an optional byte-order mark) tolerated before the format must be
// known: beyond it the input is refused instead of being read on without limit.
constexpr size_t kMaxLeadingSpace = size_t{1} << 20;

bool IsMsgpackArrayMarker(unsigned char b);

// JSON: an optional UTF-8 byte-order mark, ASCII whitespace, then [ or {. MessagePack: an
// array marker first.
Sniff SniffFormat(const char* data, size_t size);

}  // namespace proton::format
