// How a merged trace names each input's process: by the rank its file name carries, in the
// profiler's naming (profiler.md §2: NAME.rank<R>.<format>, also with .part_<p>), else by
// its position among the FILEs (from 0, the order --merge's argmax counts in).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace proton::viewer {

// R of a ".rank<R>." (or a final ".rank<R>") in the file's base name.
std::optional<long long> RankOfFileName(std::string_view path);

// "rank <R>", or "input <position>" when the name carries no rank.
std::string RankLabel(std::string_view path, size_t position);

}  // namespace proton::viewer
