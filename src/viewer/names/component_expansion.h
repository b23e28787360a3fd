// The size of a libiberty demangle_component tree with its shared subtrees written out: a
// substitution (S_, S0_, ...) is one pointer to an earlier subtree, so a tree of n
// components can stand for 2^n of them, and the demangler walks (and prints) the written-out
// form. Measured in one pass over the shared form, so in time linear in the components.
#pragma once

#include <cstddef>

struct demangle_component;  // libiberty/demangle.h

namespace proton::viewer {

struct WrittenOutSize {
  // The components with every shared subtree counted once per use. Template parameters
  // (T_) count as one: what they stand for is known only while printing, and the output
  // budget bounds that.
  size_t components = 0;
  // The identifier bytes among them outside pack expansions: every one is printed, so the
  // demangled text is at least this long.
  size_t text_bytes = 0;
};

// The written-out size of `root`, computed in one pass over the shared form. Counting stops
// as soon as a field passes its cap in `caps`: that field is then above its cap, and the
// other one is a partial count. A tree with a cycle (which printing would refuse) or a
// component outside `block` comes back with `components` above its cap. `block` holds
// `block_size` components, every component of the tree: cplus_demangle_v3_components makes
// them all in the one array it returns (2 per byte of the name), so the pass indexes them
// instead of hashing pointers.
WrittenOutSize MeasureWrittenOut(const demangle_component* root, const demangle_component* block,
                                 size_t block_size, const WrittenOutSize& caps);

}  // namespace proton::viewer
