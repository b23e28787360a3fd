// See py_convert.h.
#include "py_convert.h"

#include <algorithm>
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

bool ParseOptions(const std::vector<std::string>& options) {
  std::vector<std::string> argv = options;
  argv.emplace_back("--");
  argv.emplace_back("<profile>");
  Result<viewer::ViewerOptions> parsed = viewer::ParseViewerArgs(argv);
  if (!parsed.ok()) {
    Raise(PyExc_ValueError, parsed.status());
    return false;
  }
  return true;
}

PyObject* Raise(PyObject* type, const Status& status) {
  if (status.kind() == ErrorKind::kOutOfMemory) type = PyExc_MemoryError;
  return RaiseText(type, status.message());
}

PyObject* RaiseText(PyObject* type, std::string_view message) {
  // Messages quote file names, which may be any bytes (surrogateescape, like os.fsdecode).
  PyObject* text = PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()),
                                        "surrogateescape");
  if (text == nullptr) return nullptr;
  PyErr_SetObject(type, text);
  Py_DECREF(text);
  return nullptr;
}

PyObject* RaiseReadError(const Status& status) { return Raise(PyExc_RuntimeError, status); }

PyObject* RaiseMetricError(const Status& status, std::string_view display_name) {
  std::string message = status.message();
  if (status.kind() == ErrorKind::kRuntime) {
    // The reference's "Metric m is not found. Use the --list flag ...": no file name.
    const std::string in_file = " in '" + std::string(display_name) + "'";
    if (const size_t at = message.find(in_file); at != std::string::npos) {
      message.erase(at, in_file.size());
    }
    return RaiseText(PyExc_RuntimeError, message);
  }
  constexpr std::string_view kUnit = "Unsupported unit ";
  if (status.kind() == ErrorKind::kValue && message.starts_with(kUnit)) {
    // The reference's "Unsupported unit u", without the metric it was found in.
    message.erase(std::min(message.size(), message.find(" in metric ", kUnit.size())));
  }
  return RaiseText(PyExc_ValueError, message);
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
