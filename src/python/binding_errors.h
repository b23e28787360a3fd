// Turns core errors (proton::Status) into Python exceptions for proton._C.
// Every function here must be called with the GIL held.
#pragma once

#include <Python.h>

#include "util/status.h"

namespace proton::python {

// Sets the Python exception that matches `status.kind()` (ValueError, TypeError, IndexError,
// RuntimeError) with the core's message verbatim, and returns nullptr for `return` chaining.
PyObject* RaiseStatus(const Status& status);

// Returns Py_None (new reference) for an OK status, else raises as RaiseStatus.
PyObject* NoneOrRaise(const Status& status);

}  // namespace proton::python
