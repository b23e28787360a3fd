// See component_expansion.h. The children of each component type follow libiberty's
// demangle.h (which union member a type uses) and its own tree walk,
// d_count_templates_scopes in cp-demangle.c.
#include "viewer/names/component_expansion.h"

#include <libiberty/demangle.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace proton::viewer {
namespace {

using Children = std::array<const demangle_component*, 2>;

// The subtrees of `c` (null where none).
Children ChildrenOf(const demangle_component& c) {
  switch (c.type) {
    // Leaves: a name, an operator, a builtin type, a number, a parameter index, ...
    case DEMANGLE_COMPONENT_NAME:
    case DEMANGLE_COMPONENT_OPERATOR:
    case DEMANGLE_COMPONENT_BUILTIN_TYPE:
    case DEMANGLE_COMPONENT_EXTENDED_BUILTIN_TYPE:
    case DEMANGLE_COMPONENT_SUB_STD:
    case DEMANGLE_COMPONENT_TEMPLATE_PARAM:
    case DEMANGLE_COMPONENT_FUNCTION_PARAM:
    case DEMANGLE_COMPONENT_CHARACTER:
    case DEMANGLE_COMPONENT_NUMBER:
    case DEMANGLE_COMPONENT_UNNAMED_TYPE: return {nullptr, nullptr};
    // One subtree held in a union member of its own.
    case DEMANGLE_COMPONENT_EXTENDED_OPERATOR: return {c.u.s_extended_operator.name, nullptr};
    case DEMANGLE_COMPONENT_CTOR: return {c.u.s_ctor.name, nullptr};
    case DEMANGLE_COMPONENT_DTOR: return {c.u.s_dtor.name, nullptr};
    case DEMANGLE_COMPONENT_FIXED_TYPE: return {c.u.s_fixed.length, nullptr};
    case DEMANGLE_COMPONENT_LAMBDA:
    case DEMANGLE_COMPONENT_DEFAULT_ARG: return {c.u.s_unary_num.sub, nullptr};
    // Every other type is made by d_make_comp: a left and a right subtree, either may be null.
    default: return {c.u.s_binary.left, c.u.s_binary.right};
  }
}

// The identifier bytes a component prints itself (names, std:: abbreviations), which the
// demangled text holds wherever the component is printed.
uint32_t OwnTextBytes(const demangle_component& c) {
  if (c.type == DEMANGLE_COMPONENT_NAME) return static_cast<uint32_t>(c.u.s_name.len);
  if (c.type == DEMANGLE_COMPONENT_SUB_STD) return static_cast<uint32_t>(c.u.s_string.len);
  return 0;
}

enum class Visit { kOpen, kClose };

struct Sizes {
  uint32_t components = 0;  // 0 while unseen
  uint32_t text_bytes = 0;
};

constexpr uint32_t kCounting = std::numeric_limits<uint32_t>::max();  // being counted

// The sizes of `node` from its children's (finished) sizes, saturated at the caps + 1.
Sizes Combine(const demangle_component& node, const std::vector<Sizes>& sizes,
              const demangle_component* block, const WrittenOutSize& caps) {
  size_t components = 1;
  size_t text_bytes = OwnTextBytes(node);
  for (const demangle_component* child : ChildrenOf(node)) {
    if (child == nullptr) continue;
    components += sizes[static_cast<size_t>(child - block)].components;
    text_bytes += sizes[static_cast<size_t>(child - block)].text_bytes;
  }
  // A pack expansion prints its pattern once per element of its pack, and a pack may be
  // empty: none of the pattern's text is sure to be printed.
  if (node.type == DEMANGLE_COMPONENT_PACK_EXPANSION) text_bytes = 0;
  return Sizes{static_cast<uint32_t>(std::min(components, caps.components + 1)),
               static_cast<uint32_t>(std::min(text_bytes, caps.text_bytes + 1))};
}

}  // namespace

WrittenOutSize MeasureWrittenOut(const demangle_component* root, const demangle_component* block,
                                 size_t block_size, const WrittenOutSize& caps) {
  const WrittenOutSize over{caps.components + 1, 0};
  if (root == nullptr) return WrittenOutSize{};
  if (caps.components >= kCounting - 1 || caps.text_bytes >= kCounting - 1) return over;
  const auto inside = [&](const demangle_component* c) {
    return c >= block && c < block + block_size;
  };
  // The sizes of each finished subtree, by its index in `block`. Reused: one allocation per
  // thread, not one per name.
  thread_local std::vector<Sizes> sizes;
  sizes.assign(block_size, Sizes{});
  // An explicit stack: the tree may be as deep as the name is long.
  thread_local std::vector<std::pair<const demangle_component*, Visit>> stack;
  stack.assign(1, {root, Visit::kOpen});
  while (!stack.empty()) {
    const auto [node, visit] = stack.back();
    stack.pop_back();
    if (!inside(node)) return over;
    Sizes& size = sizes[static_cast<size_t>(node - block)];
    if (visit == Visit::kClose) {
      size = Combine(*node, sizes, block, caps);
      // The whole tree is at least as large as any of its subtrees.
      if (size.components > caps.components || size.text_bytes > caps.text_bytes) {
        return WrittenOutSize{size.components, size.text_bytes};
      }
      continue;
    }
    // Seen before: finished (a shared subtree pushed twice) or, if still open, an ancestor of
    // itself (a cycle).
    if (size.components == kCounting) return over;
    if (size.components != 0) continue;
    size.components = kCounting;
    stack.emplace_back(node, Visit::kClose);
    for (const demangle_component* child : ChildrenOf(*node)) {
      if (child != nullptr) stack.emplace_back(child, Visit::kOpen);
    }
  }
  const Sizes& whole = sizes[static_cast<size_t>(root - block)];
  return WrittenOutSize{whole.components, whole.text_bytes};
}

}  // namespace proton::viewer
