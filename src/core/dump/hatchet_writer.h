// The .hatchet writer: Triton 3.6's JSON layout byte for byte (formats.md §2, §6).
#pragma once

#include <string>

#include "core/data/tree_data.h"
#include "core/dump/node_metrics.h"

namespace proton {

// Appends the document to `out`. `pretty` = the file layout (leading newline, 4-space indent,
// trailing newline); false = compact JSON (periodic-flush parts, formats.md §5).
// Call with the data's lock held. Iterative: any tree depth works.
void WriteHatchet(const TreeData& data, const DeviceTable& devices, const WriteOptions& options,
                  std::string& out, bool pretty = true);

// The device table (element 1) for `ids`, pretty at `indent` or compact.
void WriteDeviceTableJson(const DeviceTable& devices, std::string& out, bool pretty);

}  // namespace proton
