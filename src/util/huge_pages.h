// Transparent huge pages for a large array that is about to be filled: on virtual machines
// every first touch of a 4 KB page costs a trap (about 10 us here), which dominates filling
// arrays of hundreds of MB; with the advice one fault maps 2 MB. Only the whole 2 MB-aligned
// ranges inside become huge pages, and untouched ones still cost no memory. A hint: a failed
// madvise (no THP, an old kernel) changes nothing but speed.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace proton {

inline void AdviseHugePages(const void* data, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  if (bytes < 2 * kHuge) return;  // no whole huge page inside
  const auto begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  // madvise takes whole pages: the range is rounded as an integer, then made an address.
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// The reserved storage of a std::vector.
template <typename V>
void AdviseHugePages(const V& v) {
  AdviseHugePages(v.data(), v.capacity() * sizeof(typename V::value_type));
}

}  // namespace proton
