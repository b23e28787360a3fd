// Interned strings: each distinct byte string once, numbered 0, 1, ... in order of first
// sight. The trace merge keeps one input's names this way, so that a million kernel events
// with a few hundred names cost a few hundred strings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace proton::viewer::traces {

class StringTable {
 public:
  uint32_t Intern(std::string_view s);
  std::string_view Get(uint32_t id) const {
    return std::string_view(arena_).substr(offsets_[id], offsets_[id + 1] - offsets_[id]);
  }
  uint32_t size() const { return static_cast<uint32_t>(offsets_.size() - 1); }
  // Forgets every string; keeps the memory for the next input.
  void Clear();
  size_t bytes() const {
    return arena_.capacity() + 16 * offsets_.capacity() + 4 * slots_.capacity();
  }

 private:
  void Grow();

  std::string arena_;
  std::vector<uint64_t> offsets_{0};  // string i is arena_[offsets_[i], offsets_[i + 1])
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> slots_;  // open addressing: id + 1, 0 = empty; a power of two
};

}  // namespace proton::viewer::traces
