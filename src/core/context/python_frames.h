// Registration point for the Python frame provider used by the python context source
// (profiler.md §3.5). The core never includes Python headers: the binding (proton._C)
// registers a provider at import, and the core calls it at each capture in a python-context
// session (scope enter, op enter, kernel launch) and for context.depth.
#pragma once

#include <string_view>
#include <vector>

namespace proton {

// Runs on the application thread that captures. It must append the calling thread's Python
// frames to `frames`, OUTERMOST FIRST, each named "<co_filename>:<line>@<co_name>", with the
// frames of §2.8 already removed. A thread without Python frames appends nothing (its work
// then lands directly under ROOT). The views must stay valid until the next call of the
// provider on the same thread, and one address must always hold the same text while the
// provider is installed: the core recognises the frames of the previous capture by address
// (e.g. the provider caches one string per (code object, line) and never frees it). The
// provider takes the GIL itself when the thread does not hold it. `frames` is empty on entry.
using PythonFrameProvider = void (*)(std::vector<std::string_view>* frames);

// Installs the provider (nullptr removes it). Thread-safe; the binding calls it once at import.
void SetPythonFrameProvider(PythonFrameProvider provider);

// The installed provider, or nullptr. Without a provider, python-context sessions capture no
// frames (every kernel lands under ROOT).
PythonFrameProvider GetPythonFrameProvider();

}  // namespace proton
