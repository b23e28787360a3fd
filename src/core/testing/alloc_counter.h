// Counts heap allocations (operator new) made by the calling thread, so tests can check that a
// hot path is allocation-free in the steady state, and fails large ones on request, so tests
// reach out-of-memory paths. Unavailable in sanitizer builds, whose
// runtimes own operator new: tests skip then.
#pragma once

#include <cstdint>

namespace proton::test {

bool AllocationCountingAvailable();
uint64_t ThreadAllocations();  // operator new calls on this thread so far
// While non-zero, operator new on this thread throws std::bad_alloc for any request larger than
// `bytes`, as if memory had run out (0 = off).
void FailThreadAllocationsAbove(uint64_t bytes);

}  // namespace proton::test
