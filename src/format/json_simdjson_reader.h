// The simdjson On-Demand JSON profile reader, step 2 of json_reader.h's rule; see
// json_simdjson_reader.cc.
#pragma once

#include <cstddef>

#include "format/reader_common.h"
#include "tree/profile_tree.h"

namespace proton::format {

// Reads the document `data` as ParseJson takes it (no byte-order mark; readable up to
// `capacity` >= size + simdjson's padding; `object`: its first token is `{`, which is only
// told apart as a Chrome trace or refused) into the empty `tree`. Returns false, with `tree`
// untouched, when simdjson cannot allocate its index (about 6 bytes per byte of input): the
// caller streams the document instead. Otherwise true, with the outcome in `fail`.
bool ParseJsonSimdjson(const char* data, size_t size, size_t capacity, bool object,
                       tree::ProfileTree& tree, ReadFail& fail);

}  // namespace proton::format
