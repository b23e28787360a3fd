// See sniff.h.
#include "format/sniff.h"

#include <string_view>

#include "format/reader_common.h"

namespace proton::format {

bool IsMsgpackArrayMarker(unsigned char b) {
  return (b >= 0x90 && b <= 0x9f) || b == 0xdc || b == 0xdd;
}

Sniff SniffFormat(const char* data, size_t size) {
  if (size == 0) return Sniff::kMore;
  if (IsMsgpackArrayMarker(static_cast<unsigned char>(data[0]))) return Sniff::kMsgpack;
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  size_t i = 0;
  while (i < kBom.size() && i < size && data[i] == kBom[i]) ++i;
  if (i < kBom.size()) {
    if (i == size) return Sniff::kMore;  // a byte-order mark cut short by the read so far
    i = 0;                               // no byte-order mark
  }
  while (i < size && IsAsciiSpace(data[i])) ++i;
  if (i == size) return i > kMaxLeadingSpace ? Sniff::kNeither : Sniff::kMore;
  return data[i] == '[' || data[i] == '{' ? Sniff::kJson : Sniff::kNeither;
}

}  // namespace proton::format
