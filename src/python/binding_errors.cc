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
  // Messages may quote a file name of any bytes: undecodable ones are kept as surrogateescape
  // does (os.fsdecode), where PyErr_SetString would replace the error by a UnicodeDecodeError.
  const std::string& message = status.message();
  PyObject* text = PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()),
                                        "surrogateescape");
  if (text == nullptr) return nullptr;
  PyErr_SetObject(type, text);
  Py_DECREF(text);
  return nullptr;
}

PyObject* NoneOrRaise(const Status& status) {
  if (!status.ok()) return RaiseStatus(status);
  Py_RETURN_NONE;
}

}  // namespace proton::python
