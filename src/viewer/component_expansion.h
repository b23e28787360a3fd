// The size of a libiberty demangle_component tree with its shared subtrees written out: a
// substitution (S_, S0_, ...) is one pointer to an earlier subtree, so a tree of n
// components can stand for 2^n of them, and the demangler walks (and prints) the written-out
// form. Counted in one pass over the shared form, so in time linear in the components.
#pragma once

#include <cstddef>

struct demangle_component;  // libiberty/demangle.h

namespace proton::viewer {

// The number of components of `root` with every shared subtree counted once per use, or
// `cap` + 1 when that is more than `cap` (also when the tree has a cycle, which printing
// would refuse, or a component outside `block`). Template parameters (T_) count as one
// component: what they stand for is known only while printing, and the output budget
// bounds that. `block` holds `block_size` components, every component of the tree:
// cplus_demangle_v3_components makes them all in the one array it returns (2 per byte of
// the name), so the pass indexes them instead of hashing pointers.
size_t ExpandedComponents(const demangle_component* root, const demangle_component* block,
                          size_t block_size, size_t cap);

}  // namespace proton::viewer
