// Replaces the global operator new/delete of the core test binary with malloc/free plus a
// per-thread counter; see alloc_counter.h.
#include "core/testing/alloc_counter.h"

#include <cstdlib>
#include <new>

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define PROTON_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define PROTON_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef PROTON_COUNT_ALLOCATIONS
#define PROTON_COUNT_ALLOCATIONS 1
#endif

namespace proton::test {
namespace {
thread_local uint64_t t_allocations = 0;
thread_local uint64_t t_fail_above = 0;
}  // namespace

bool AllocationCountingAvailable() { return PROTON_COUNT_ALLOCATIONS != 0; }
uint64_t ThreadAllocations() { return t_allocations; }
void FailThreadAllocationsAbove(uint64_t bytes) { t_fail_above = bytes; }

#if PROTON_COUNT_ALLOCATIONS
void* CountedAlloc(std::size_t size) {
  ++t_allocations;
  if (t_fail_above != 0 && size > t_fail_above) throw std::bad_alloc();
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
#endif

}  // namespace proton::test

#if PROTON_COUNT_ALLOCATIONS
void* operator new(std::size_t size) { return proton::test::CountedAlloc(size); }
void* operator new[](std::size_t size) { return proton::test::CountedAlloc(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif
