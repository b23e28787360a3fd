// The streaming JSON profile reader: RapidJSON's SAX Reader, in its iterative mode, over a
// bounded input window (json_stream_input.h). It reads any JSON document of any size with
// memory in proportion to the tree (plus the longest string), and builds the same
// ProfileTree, with the same ReadFail, as the simdjson reader (json_simdjson_reader.cc), which
// holds the whole document and its structural index in memory and stops at 4 GiB. json_reader.h
// says when each is used.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "format/reader_common.h"
#include "tree/profile_tree.h"

namespace proton::format {

// A document in memory (after any byte-order mark, as ParseJson takes it).
ReadFail ParseJsonStream(std::string_view doc, tree::ProfileTree& tree);

// `head` (the first bytes, already read; `owner` holds them or is null and is freed once they
// are parsed), then the rest of `fd` up to end of file, however long it grows meanwhile. A
// leading UTF-8 byte-order mark is skipped. `size_hint` (0: unknown) sizes the tree's
// reservations. A failed read() returns kRead with its errno in `read_errno` (else 0).
ReadFail ReadJsonStream(std::string_view head, std::unique_ptr<char[]> owner, int fd,
                        size_t size_hint, tree::ProfileTree& tree, int& read_errno);

}  // namespace proton::format
