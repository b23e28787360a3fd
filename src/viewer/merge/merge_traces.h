// proton-viewer --export OUT.perfetto_trace FILE... (viewer.md §11.17): many traces (one per
// rank; Chrome JSON or Perfetto protobuf, mixed) into one Perfetto trace, one process per
// input named by its rank, all on the absolute clock so that the ranks line up (formats.md
// §8). Inputs are read one at a time, each written as soon as it is read, so memory is one
// input's events; the output replaces OUT only once complete (outputs/output_file.h).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace proton::viewer {

// `warn` gets each warning as one line (without a line end): an input without absolute time
// ("'F' has no absolute time: ..."), events the model has no place for.
// Errors: any input's (missing, a tree profile, damaged: the reader's one line), and
// "cannot write 'OUT': <strerror>".
Status MergeTraces(const std::vector<std::string>& files, const std::string& out_path,
                   const std::function<void(std::string_view)>& warn);

}  // namespace proton::viewer
