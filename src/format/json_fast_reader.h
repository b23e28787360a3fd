// Fast path of the JSON profile reader: one sequential pass over the bytes, without
// simdjson's structural index (see json_fast_reader.cc for why and for what it accepts).
#pragma once

#include <cstddef>

#include "tree/profile_tree.h"

namespace proton::format {

// Reads a Triton/Proton tree profile `[node, devices?]` into the empty `tree`, making exactly
// the builder calls that the simdjson reader (json_simdjson_reader.cc) makes for the same document.
// Returns false as soon as the input holds anything outside the common subset (escapes,
// non-ASCII or control bytes in strings, containers where a scalar is expected, any syntax
// or shape error): the caller then discards `tree` and reads the document with simdjson,
// which decides every unusual case. `data[size]` must be a NUL byte followed by at least 15
// more readable bytes (simdjson's padding satisfies this).
bool ParseJsonFast(const char* data, size_t size, tree::ProfileTree& tree);

// The same, streaming the input from `fd` (at offset 0; an optional UTF-8 byte-order mark is
// skipped) through a 256 KiB window, so the file is never held in memory. `size_hint` (the file
// size, 0 when unknown) sizes the tree's reservations. On false the caller discards `tree`,
// rewinds `fd` and reads the whole file the ordinary way.
bool ReadJsonFast(int fd, size_t size_hint, tree::ProfileTree& tree);

}  // namespace proton::format
