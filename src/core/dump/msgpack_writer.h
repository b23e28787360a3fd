// The .hatchet_msgpack writer (formats.md §3, §6): the same tree as .hatchet, in MessagePack
// with the reference key orders and the smallest encodings.
#pragma once

#include <string>

#include "core/data/tree_data.h"
#include "core/dump/node_metrics.h"

namespace proton {

// Appends the document bytes to `out`. Call with the data's lock held. Iterative.
void WriteHatchetMsgpack(const TreeData& data, const DeviceTable& devices,
                         const WriteOptions& options, std::string& out);

// Low-level encoders, exposed for tests.
void MsgpackUint(std::string& out, uint64_t v);
void MsgpackInt(std::string& out, int64_t v);
void MsgpackDouble(std::string& out, double v);
void MsgpackString(std::string& out, std::string_view s);
void MsgpackArrayHeader(std::string& out, uint32_t n);
void MsgpackMapHeader(std::string& out, uint32_t n);

}  // namespace proton
