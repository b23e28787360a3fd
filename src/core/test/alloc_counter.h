// Counts heap allocations (operator new) made by the calling thread, so tests can check that a
// hot path is allocation-free in the steady state. Unavailable in sanitizer builds, whose
// runtimes own operator new: tests skip then.
#pragma once

#include <cstdint>

namespace proton::test {

bool AllocationCountingAvailable();
uint64_t ThreadAllocations();  // operator new calls on this thread so far

}  // namespace proton::test
