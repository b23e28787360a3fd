// The UTF-8 text of a Python str, shared by both extensions (proton._C and proton._viewer).
#pragma once

#include <Python.h>

#include <cstddef>
#include <string_view>

namespace proton::python_common {

// `*out` views the UTF-8 of `object`, valid while `object` lives. On failure (not a str, or
// not encodable) a TypeError or UnicodeEncodeError naming `what` is set and false returned.
inline bool Utf8View(PyObject* object, const char* what, std::string_view* out) {
  if (!PyUnicode_Check(object)) {
    PyErr_Format(PyExc_TypeError, "%s must be str, not %.200s", what, Py_TYPE(object)->tp_name);
    return false;
  }
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(object, &size);
  if (utf8 == nullptr) return false;
  *out = std::string_view(utf8, static_cast<size_t>(size));
  return true;
}

}  // namespace proton::python_common
