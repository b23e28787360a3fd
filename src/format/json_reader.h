// JSON profile reader (simdjson On-Demand); see json_reader.cc.
#pragma once

#include <cstddef>
#include <string_view>

#include "format/reader_common.h"

namespace proton::format {

// Parses a JSON profile into `tree` (not prepared). `data` must stay readable up to
// `capacity` >= size + simdjson::SIMDJSON_PADDING bytes.
ReadFail ParseJson(const char* data, size_t size, size_t capacity, viewer::ProfileTree& tree);

// Classifies a scalar token (numbers, NaN/Infinity/-Infinity, true/false/null).
TokenValue ClassifyJsonToken(std::string_view tok);

}  // namespace proton::format
