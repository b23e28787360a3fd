// Bounded demangling of Itanium C++ ABI names (viewer.md §11.9), the one demangler of
// --demangle and --match=normalized. It is libiberty's cp-demangle.c, the demangler that
// libstdc++'s abi::__cxa_demangle is built from, used through its component interface so
// that the work and the output of each name are bounded (design.md, "Demangling"): a name
// whose substitutions nest can print exponentially more text than it holds (212 bytes
// demangle to 6.8 MB), which __cxa_demangle would build in memory whole.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace proton::viewer {

// The limits, far above every real kernel name (the longest in tests/refdata: 458 bytes
// mangled, 5,082 demangled, 302 expanded components; CUTLASS 3 kernels reach a few KB
// mangled and tens of KB demangled). Past any of them the name is kept as stored.
inline constexpr size_t kMaxMangledBytes = 16384;
// Components of the name's tree with every substitution written out in full: bounds the
// demangler's walks over shared subtrees that print nothing (the search for a template
// argument pack), which the output budget below cannot see.
inline constexpr size_t kMaxExpandedComponents = 65536;
inline constexpr size_t kMaxDemangledBytes = 65536;

enum class DemangleStatus {
  kDemangled,      // text holds the demangled name
  kNotMangled,     // not starting with "_Z", or holding a NUL byte
  kInvalid,        // the demangler rejects it (malformed, or its own recursion limits)
  kTooLong,        // longer than kMaxMangledBytes
  kTooExpanded,    // more than kMaxExpandedComponents
  kOutputTooLong,  // its text would pass kMaxDemangledBytes
};

struct DemangleResult {
  DemangleStatus status = DemangleStatus::kNotMangled;
  std::string text;  // empty unless status is kDemangled
};

// Demangles `name` within the limits above. Time and memory are linear in the name's length
// (plus kMaxDemangledBytes), whatever the name.
DemangleResult DemangleBounded(std::string_view name);

}  // namespace proton::viewer
