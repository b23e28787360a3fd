// The C implementations of `proton.scope` and `proton.cpu_timed_scope` (profiler.md §1.5):
// context managers whose __enter__/__exit__ call the core directly, so one
// `with proton.scope("x"):` costs a few hundred nanoseconds at most.
#pragma once

#include <Python.h>

namespace proton::python {

// Readies both types and adds them to `module` as `scope` and `cpu_timed_scope`.
// Returns false with a Python exception set on failure.
bool AddScopeTypes(PyObject* module);

// _C.set_scope_decorator(fn): fn(scope_instance, func) -> wrapper, used by scope.__call__.
PyObject* SetScopeDecorator(PyObject* self, PyObject* fn);

}  // namespace proton::python
