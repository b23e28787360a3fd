// --match=normalized (viewer.md §11.7): frame names with the parts that change when a kernel
// is recompiled taken away, so that --diff-profile and --fail-above pair "the same" kernel
// across builds. Only the diff uses it; printing, filters and --list see the stored names.
#pragma once

#include <string>
#include <string_view>

#include "viewer/common/tree_names.h"

namespace proton::viewer {

// The normalised form of one frame name: an Itanium-mangled name (starting with "_Z") is
// demangled (kept as is when that fails), then Triton/TorchInductor numeric, signature and
// hex-hash suffixes are removed from the end, repeatedly (the exact rules are in §11.7).
std::string NormalizeName(std::string_view name);

// Renames every node of `tree` to its normalised name and rebuilds the sibling order. Equal
// siblings may result; callers merge them (MergeDuplicates) before diffing.
void NormalizeNames(ProfileTree& tree);

}  // namespace proton::viewer
