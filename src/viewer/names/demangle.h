// Itanium C++ ABI names (those starting with "_Z") for people: --demangle (viewer.md §11.9)
// and --match=normalized (§11.7) both go through DemangleItanium, libiberty's demangler (the
// one of libstdc++'s abi::__cxa_demangle) with bounded work and output.
#pragma once

#include <string>
#include <string_view>

#include "viewer/common/options.h"
#include "viewer/common/tree_names.h"

namespace proton::viewer {

// The demangled text of a name starting with "_Z"; any other name, one that fails to
// demangle and one past the limits of itanium_demangle.h come back unchanged.
std::string DemangleItanium(std::string_view name);

// The qualified base name of a demangled C++ name: template arguments, parameter lists,
// cv/ref qualifiers and a leading return type removed, while `(anonymous namespace)`,
// `operator()`/`operator<` and `{lambda(...)#N}` components are kept
// ("void at::native::foo<4>(int)" -> "at::native::foo"). Text it cannot reduce to a name
// comes back unchanged.
std::string ShortCxxName(std::string_view demangled);

// The name --demangle shows for a stored frame name (kOff: the stored name).
std::string DisplayName(std::string_view stored, DemangleMode mode);

// Renames every node of `tree` to its DisplayName. The sibling order is left as it is, so
// rows stay in stored-name order (§11.9): only the text of the names changes.
void ApplyDemangle(ProfileTree& tree, DemangleMode mode);

}  // namespace proton::viewer
