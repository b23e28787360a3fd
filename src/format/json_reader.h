// JSON profile reader (simdjson On-Demand); see json_reader.cc.
#pragma once

#include <cstddef>
#include <string_view>

#include "format/reader_common.h"

namespace proton::format {

// Parses a JSON profile into `tree` (not prepared). `data` must stay readable up to
// `capacity` >= size + simdjson::SIMDJSON_PADDING bytes. `allow_fast` tries the fast path
// (json_fast_reader.h) first when the padding starts with a NUL; tests turn it off to compare.
ReadFail ParseJson(const char* data, size_t size, size_t capacity, tree::ProfileTree& tree,
                   bool allow_fast = true);

// The largest document given to simdjson (its On-Demand parser takes at most
// SIMDJSON_MAXSIZE_BYTES, 4 GiB, per document). A larger JSON profile is read by the
// streaming fast path alone, and one it cannot read fails with ReadFail::kTooLarge.
// Tests lower the limit to prove that path on small files.
size_t JsonGeneralReaderLimit();
void SetJsonGeneralReaderLimitForTest(size_t bytes);  // 0 restores the default

// Classifies a scalar token (numbers, NaN/Infinity/-Infinity, true/false/null).
TokenValue ClassifyJsonToken(std::string_view tok);

}  // namespace proton::format
