// The one entry for reading a JSON profile (json_reader.cc): profile_reader.cc hands every
// JSON input here, and the rule below picks one of three readers.
//
// Three backends build the same tree and the same ReadFail; one rule picks among them, and
// every JSON input follows it:
//   1. The fast path (json_fast_reader.h): Proton's own layout, in one sequential pass, from
//      a regular file through a small window or from bytes in memory. Off when
//      JsonFastPathEnabled() is false. It gives up on anything unusual (and on `{...}`
//      documents), and the document is then read from its start by 2 or 3, which decide it.
//   2. simdjson On-Demand (this file), on the whole document in memory (a regular file
//      mapped): documents up to JsonStreamThreshold() whose index simdjson can allocate.
//   3. The streaming reader (json_stream_reader.h, RapidJSON): every other document (over the
//      threshold, short of memory for simdjson's index, a file that cannot be mapped), and a
//      pipe or standard input past the threshold (profile_reader.cc streams the rest).
// Speed of the common case decides the order: the fast path reads Proton's profiles with no
// index and no copy (bench/viewer/RESULTS.md).
#pragma once

#include <cstddef>
#include <string_view>

#include "format/reader_common.h"

namespace proton::format {

// A regular file, open as `fd` at its start, `size` bytes at open (0 is allowed): steps 1-3.
// A failed lseek or read() returns kRead with its errno in `read_errno` (else 0).
ReadFail ReadJsonFile(int fd, size_t size, tree::ProfileTree& tree, int& read_errno);

// A JSON document in memory as it was read: an optional UTF-8 byte-order mark, then
// ParseJson.
ReadFail ParseJsonInput(const char* data, size_t size, size_t capacity, tree::ProfileTree& tree,
                        bool allow_fast = true);

// Parses a JSON profile (no byte-order mark) into `tree` (not prepared): steps 1-3. `data`
// must stay readable up to `capacity` >= size + simdjson::SIMDJSON_PADDING bytes. Step 1
// runs when `allow_fast` and the padding starts with a NUL; tests turn it off to compare.
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
