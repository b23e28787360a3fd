// JSON profile reader (simdjson On-Demand); see json_reader.cc.
#pragma once

#include <cstddef>
#include <string_view>

#include "format/reader_common.h"

namespace proton::format {

// Parses a JSON profile into `tree` (not prepared). `data` must stay readable up to
// `capacity` >= size + simdjson::SIMDJSON_PADDING bytes. `allow_fast` tries the fast path
// (json_fast_reader.h) first when the padding starts with a NUL; tests turn it off to compare.
// A document the fast path does not read goes to simdjson On-Demand, or to the streaming
// reader (json_stream_reader.h) when it is over JsonStreamThreshold() or simdjson cannot get
// the memory for its index.
ReadFail ParseJson(const char* data, size_t size, size_t capacity, tree::ProfileTree& tree,
                   bool allow_fast = true);

// The largest JSON document read with simdjson; larger ones are streamed. By default the most
// simdjson takes (its On-Demand parser takes at most SIMDJSON_MAXSIZE_BYTES, 4 GiB, per
// document, padding included). The environment variable PROTON_JSON_STREAM_ABOVE (a number
// of bytes, at most the default) lowers it: with 0, every JSON document the fast path does
// not take is streamed, which is how the reader's tests run through the streaming path.
size_t JsonStreamThreshold();
// False when the environment sets PROTON_JSON_FAST_PATH=0: then no JSON document takes the
// fast path, so the tests can run the other two paths over every profile.
bool JsonFastPathEnabled();
// Test overrides of both (not to be changed while another thread reads a profile); Reset
// restores the environment's values.
void SetJsonReadersForTest(size_t stream_threshold, bool fast_path);
void ResetJsonReadersForTest();

// Classifies a scalar token (numbers, NaN/Infinity/-Infinity, true/false/null).
TokenValue ClassifyJsonToken(std::string_view tok);

}  // namespace proton::format
