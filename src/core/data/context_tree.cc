// ContextTree; see context_tree.h.
#include "core/data/context_tree.h"

#include <algorithm>
#include <new>

namespace proton {

ContextTree::ContextTree() { Clear(); }

void ContextTree::Clear() {
  parents_.clear();
  names_.clear();
  index_.clear();
  parents_.push_back(kNoNode);
  names_.emplace_back("ROOT");
}

uint32_t ContextTree::Find(uint32_t parent, std::string_view name) const {
  auto it = index_.find(Key{parent, name});
  return it == index_.end() ? kNoNode : it->second;
}

uint32_t ContextTree::FindOrAdd(uint32_t parent, std::string_view name, bool* created) {
  auto it = index_.find(Key{parent, name});
  if (it != index_.end()) {
    if (created) *created = false;
    return it->second;
  }
  // All or nothing: out of memory (std::bad_alloc) at any step leaves the three arrays as
  // they were, so a tree the profiler still writes afterwards is consistent (api.cc).
  uint32_t id = static_cast<uint32_t>(parents_.size());
  names_.emplace_back(name);
  try {
    parents_.push_back(parent);
    index_.emplace(Key{parent, names_.back()}, id);
  } catch (const std::bad_alloc&) {
    if (parents_.size() > id) parents_.pop_back();
    names_.pop_back();
    throw;
  }
  if (created) *created = true;
  return id;
}

void ContextTree::SortedChildren(std::vector<uint32_t>* offsets,
                                 std::vector<uint32_t>* kids) const {
  size_t n = parents_.size();
  offsets->assign(n + 1, 0);
  for (size_t i = 1; i < n; ++i) ++(*offsets)[parents_[i] + 1];
  for (size_t i = 0; i < n; ++i) (*offsets)[i + 1] += (*offsets)[i];
  kids->assign(n > 0 ? n - 1 : 0, 0);
  std::vector<uint32_t> fill(offsets->begin(), offsets->end() - 1);
  for (size_t i = 1; i < n; ++i) (*kids)[fill[parents_[i]]++] = static_cast<uint32_t>(i);
  for (size_t p = 0; p < n; ++p) {
    auto b = kids->begin() + (*offsets)[p];
    auto e = kids->begin() + (*offsets)[p + 1];
    if (e - b > 1) {
      std::sort(b, e, [this](uint32_t a, uint32_t c) { return names_[a] < names_[c]; });
    }
  }
}

std::vector<std::string_view> ContextTree::Path(uint32_t node) const {
  std::vector<std::string_view> path;
  for (uint32_t n = node; n != kNoNode; n = parents_[n]) path.push_back(names_[n]);
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace proton
