// MessagePack profile reader (hand-written, iterative); see msgpack_reader.cc.
#pragma once

#include <cstddef>

#include "format/reader_common.h"

namespace proton::format {

// Parses a .hatchet_msgpack document into `tree` (not prepared).
ReadFail ParseMsgpack(const char* data, size_t size, tree::ProfileTree& tree);

}  // namespace proton::format
