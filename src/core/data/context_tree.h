// The calling-context tree shared by TreeData and TraceData: nodes identified by parent and
// name (profiler.md §3.1). Node 0 is ROOT. Not thread-safe; Data locks around it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace proton {

inline constexpr uint32_t kRootNode = 0;
inline constexpr uint32_t kNoNode = UINT32_MAX;

class ContextTree {
 public:
  ContextTree();
  // The child of `parent` named `name`, created when missing. `*created` tells which.
  uint32_t FindOrAdd(uint32_t parent, std::string_view name, bool* created = nullptr);
  // The child, or kNoNode.
  uint32_t Find(uint32_t parent, std::string_view name) const;
  size_t size() const { return parents_.size(); }
  uint32_t parent(uint32_t node) const { return parents_[node]; }
  const std::string& name(uint32_t node) const { return names_[node]; }
  // Children of every node in byte order of their names, as CSR arrays:
  // children of n are kids[offsets[n] .. offsets[n+1]).
  void SortedChildren(std::vector<uint32_t>* offsets, std::vector<uint32_t>* kids) const;
  // Frame names from ROOT (inclusive) down to `node`.
  std::vector<std::string_view> Path(uint32_t node) const;
  void Clear();

 private:
  struct Key {
    uint32_t parent;
    std::string_view name;  // points into names_, whose elements never move
    bool operator==(const Key& o) const { return parent == o.parent && name == o.name; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<std::string_view>()(k.name) ^ (size_t{k.parent} * 0x9e3779b97f4a7c15ull);
    }
  };
  std::vector<uint32_t> parents_;
  std::deque<std::string> names_;
  std::unordered_map<Key, uint32_t, KeyHash> index_;
};

}  // namespace proton
