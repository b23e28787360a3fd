// Status → Python exception mapping for proton._C (profiler.md §1: the exact messages come
// from the core; the binding only picks the exception type).
#include "binding_errors.h"

namespace proton::python {

PyObject* RaiseStatus(const Status& status) {
  PyObject* type = PyExc_RuntimeError;
  switch (status.kind()) {
    case ErrorKind::kValue: type = PyExc_ValueError; break;
    case ErrorKind::kType: type = PyExc_TypeError; break;
    case ErrorKind::kIndex: type = PyExc_IndexError; break;
    case ErrorKind::kOutOfMemory: type = PyExc_MemoryError; break;
    case ErrorKind::kProcessing:
    case ErrorKind::kUsage:
    case ErrorKind::kRuntime: break;
  }
  PyErr_SetString(type, status.message().c_str());
  return nullptr;
}

PyObject* NoneOrRaise(const Status& status) {
  if (!status.ok()) return RaiseStatus(status);
  Py_RETURN_NONE;
}

}  // namespace proton::python
