// The metrics a writer emits for one tree node, in MessagePack order (formats.md §3.1 and
// §6): ROOT placeholders or kernel metrics first, then flexible metrics sorted by name. The
// JSON writer sorts the same entries by key.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend/backend.h"
#include "core/data/tree_data.h"
#include "core/dump/output_file.h"  // ChunkSink

namespace proton {

using DeviceTable = std::map<uint32_t, DeviceInfo>;

struct WriteOptions {
  // Triton 3.6 (and ours, formats.md §6) puts a 0 on ROOT for every inclusive flexible metric;
  // 3.7+ only for count/time. False reproduces the 3.7 layout (formats.md §3.4 example).
  bool flexible_root_placeholders = true;
  // When set, writers hand the text over in chunks of about kChunkBytes (and clear their
  // buffer), so large profiles stream to the file instead of sitting in memory.
  const ChunkSink* chunk_sink = nullptr;
};

inline constexpr size_t kChunkBytes = 1 << 20;

// Hands `out` to the sink when it is large enough (or `force`). False once the sink refused
// the text (a failed write): the writer stops producing.
inline bool MaybeFlushChunk(const WriteOptions& options, std::string& out, bool force = false) {
  if (options.chunk_sink == nullptr || (!force && out.size() < kChunkBytes)) return true;
  bool accepted = (*options.chunk_sink)(out);
  out.clear();
  return accepted;
}

struct MetricEntry {
  // kDecimal: `u` written as a decimal string ("device_id": "0").
  enum class Kind { kUint, kInt, kDouble, kString, kDecimal, kIntVector, kDoubleVector };
  std::string_view key;
  Kind kind = Kind::kUint;
  uint64_t u = 0;
  int64_t i = 0;
  double d = 0;
  std::string_view s;  // kString; points into the data or the device table
  const std::vector<int64_t>* int_vector = nullptr;
  const std::vector<double>* double_vector = nullptr;
};

// Fills `out` (cleared first). Call with the data's lock held.
void CollectNodeMetrics(const TreeData& data, uint32_t node, const DeviceTable& devices,
                        const WriteOptions& options, std::vector<MetricEntry>* out);

// "CUDA" unless the device table says otherwise.
std::string_view DeviceTypeOf(const DeviceTable& devices, uint32_t device_id);

}  // namespace proton
