// See string_table.h.
#include "viewer/traces/string_table.h"

#include <functional>

namespace proton::viewer::traces {

void StringTable::Clear() {
  arena_.clear();
  offsets_.assign(1, 0);
  hashes_.clear();
  slots_.assign(slots_.size(), 0);
}

void StringTable::Grow() {
  const size_t capacity = slots_.empty() ? 1024 : slots_.size() * 2;
  slots_.assign(capacity, 0);
  for (uint32_t id = 0; id < hashes_.size(); ++id) {
    size_t at = hashes_[id] & (capacity - 1);
    while (slots_[at] != 0) at = (at + 1) & (capacity - 1);
    slots_[at] = id + 1;
  }
}

uint32_t StringTable::Intern(std::string_view s) {
  if ((hashes_.size() + 1) * 2 > slots_.size()) Grow();  // at most half full
  const uint64_t hash = std::hash<std::string_view>()(s);
  const size_t mask = slots_.size() - 1;
  size_t at = hash & mask;
  while (slots_[at] != 0) {
    const uint32_t id = slots_[at] - 1;
    if (hashes_[id] == hash && Get(id) == s) return id;
    at = (at + 1) & mask;
  }
  const auto id = static_cast<uint32_t>(hashes_.size());
  hashes_.push_back(hash);
  arena_.append(s);
  offsets_.push_back(arena_.size());
  slots_[at] = id + 1;
  return id;
}

}  // namespace proton::viewer::traces
