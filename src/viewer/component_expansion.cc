// See component_expansion.h. The children of each component type follow libiberty's
// demangle.h (which union member a type uses) and its own tree walk,
// d_count_templates_scopes in cp-demangle.c.
#include "viewer/component_expansion.h"

#include <libiberty/demangle.h>

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

enum class Visit { kOpen, kClose };

}  // namespace

size_t ExpandedComponents(const demangle_component* root, const demangle_component* block,
                          size_t block_size, size_t cap) {
  if (root == nullptr) return 0;
  const size_t over = cap + 1;
  constexpr uint32_t kUnseen = 0;
  constexpr uint32_t kCounting = std::numeric_limits<uint32_t>::max();  // being counted
  if (over >= kCounting) return over;
  // The size of each finished subtree, by its index in `block`. Reused: one allocation per
  // thread, not one per name.
  thread_local std::vector<uint32_t> size_of;
  size_of.assign(block_size, kUnseen);
  const auto index = [&](const demangle_component* c) -> size_t {
    return c >= block && c < block + block_size ? static_cast<size_t>(c - block) : block_size;
  };
  // An explicit stack: the tree may be as deep as the name is long.
  thread_local std::vector<std::pair<const demangle_component*, Visit>> stack;
  stack.assign(1, {root, Visit::kOpen});
  while (!stack.empty()) {
    const auto [node, visit] = stack.back();
    stack.pop_back();
    const size_t i = index(node);
    if (i == block_size) return over;
    if (visit == Visit::kOpen) {
      // Seen before: finished (a shared subtree pushed twice) or, if still open, an ancestor
      // of itself.
      if (size_of[i] == kCounting) return over;
      if (size_of[i] != kUnseen) continue;
      size_of[i] = kCounting;
      stack.emplace_back(node, Visit::kClose);
      for (const demangle_component* child : ChildrenOf(*node)) {
        if (child != nullptr) stack.emplace_back(child, Visit::kOpen);
      }
      continue;
    }
    size_t total = 1;
    for (const demangle_component* child : ChildrenOf(*node)) {
      if (child != nullptr) total += size_of[index(child)];
    }
    if (total > cap) return over;
    size_of[i] = static_cast<uint32_t>(total);
  }
  return size_of[index(root)];
}

}  // namespace proton::viewer
