// See py_convert.h.
#include "py_convert.h"

#include <cerrno>
#include <cstring>
#include <string_view>

#include "python_common/utf8_view.h"

namespace proton::python_viewer {

bool ToString(PyObject* object, const char* what, std::string* out) {
  std::string_view text;
  if (!python_common::Utf8View(object, what, &text)) return false;
  out->assign(text);
  return true;
}

bool ToStringList(PyObject* object, const char* what, std::vector<std::string>* out) {
  PyObject* seq = PySequence_Fast(object, "expected a list of str");
  if (seq == nullptr) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  out->clear();
  out->resize(static_cast<size_t>(n));
  bool ok = true;
  for (Py_ssize_t i = 0; ok && i < n; ++i) {
    ok = ToString(PySequence_Fast_GET_ITEM(seq, i), what, &(*out)[static_cast<size_t>(i)]);
  }
  Py_DECREF(seq);
  return ok;
}

bool ParseOptions(const std::vector<std::string>& options, viewer::ViewerArgs* out) {
  std::vector<std::string> argv = options;
  argv.emplace_back("--");
  argv.emplace_back("<profile>");
  Result<viewer::ViewerArgs> parsed = viewer::ParseViewerArgs(argv);
  if (!parsed.ok()) {
    Raise(PyExc_ValueError, parsed.status());
    return false;
  }
  *out = std::move(parsed).value();
  return true;
}

PyObject* Raise(PyObject* type, const Status& status) {
  if (status.kind() == ErrorKind::kOutOfMemory) type = PyExc_MemoryError;
  PyErr_SetString(type, status.message().c_str());
  return nullptr;
}

PyObject* RaiseReadError(const Status& status) {
  // The readers report open(2) failures as "cannot open 'F': <strerror>".
  const std::string_view message = status.message();
  const std::string_view missing = std::strerror(ENOENT);
  const bool not_found = message.starts_with("cannot open '") && message.ends_with(missing);
  return Raise(not_found ? PyExc_FileNotFoundError : PyExc_RuntimeError, status);
}

PyObject* StringList(const std::vector<std::string>& values) {
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(values.size()));
  if (list == nullptr) return nullptr;
  for (size_t i = 0; i < values.size(); ++i) {
    PyObject* item = PyUnicode_DecodeUTF8(
        values[i].data(), static_cast<Py_ssize_t>(values[i].size()), "surrogateescape");
    if (item == nullptr) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item);
  }
  return list;
}

}  // namespace proton::python_viewer
