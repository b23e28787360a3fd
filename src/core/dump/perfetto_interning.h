// One interning index of a Perfetto packet sequence (formats.md §7.6): each distinct string
// gets the next iid (1, 2, ...) on first use, and stays pending until the writer puts the new
// entries into an interned-data packet, before the first packet that refers to them.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace proton {

class InternTable {
 public:
  // The iid of `s`, interned (and pending) on first use.
  uint64_t Intern(std::string_view s);
  bool has_pending() const { return written_ < strings_.size(); }
  // Appends every pending entry to `out` as InternedData field `field` = {iid (1), name (2)}
  // (InternedString's `str` is field 2 too); they count as written from then on.
  void WritePending(std::string& out, uint32_t field);
  size_t size() const { return strings_.size(); }

 private:
  std::deque<std::string> strings_;  // iid - 1 -> string; a deque, so the keys below stay valid
  std::unordered_map<std::string_view, uint64_t> iids_;
  size_t written_ = 0;  // strings_[0, written_) are in the file
};

}  // namespace proton
