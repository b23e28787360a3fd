// Process-wide state of proton._C shared by its files: the mirror of
// `proton.flags.flags.profiling_on`, read by every scope enter without a Python attribute
// lookup. Only touched with the GIL held.
#pragma once

namespace proton::python {

// True between a successful proton.start() (or the CLI bootstrap) and finalize(None).
extern bool g_profiling_on;

}  // namespace proton::python
