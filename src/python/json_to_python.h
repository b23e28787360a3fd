// JSON text → Python objects without recursion, for proton.data.get() (profiler.md §1.7).
// Python's json module recurses once per nesting level and raises RecursionError from about
// 500 levels of scopes; this builder keeps its open containers on an explicit stack, so any
// depth the profiler records comes back. Must be called with the GIL held.
#pragma once

#include <Python.h>

#include <string_view>

namespace proton::python {

// The value of the JSON document `text`, equal to `json.loads(text.decode("utf-8",
// "replace"))`: objects are dicts (a repeated key keeps its last value), arrays lists,
// integers int (any size), other numbers float (NaN, Infinity and -Infinity accepted),
// strings str (invalid UTF-8 replaced by U+FFFD). New reference; nullptr with ValueError on
// malformed text, MemoryError when memory runs out.
PyObject* JsonToPython(std::string_view text);

}  // namespace proton::python
