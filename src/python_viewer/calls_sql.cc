// The SQLite call of proton._viewer (calls.h): proton.viewer.to_sqlite, the command's
// --export FILE.sqlite (viewer.md §11.13) on the same code.
#include <string>
#include <vector>

#include "calls.h"
#include "py_convert.h"
#include "util/out_of_memory.h"
#include "viewer/sql/sql_command.h"

namespace proton::python_viewer {
namespace {

// A list of bytes (file names as os.fsencode gives them).
bool ToBytesList(PyObject* object, std::vector<std::string>* out) {
  if (!PyList_Check(object)) {
    PyErr_SetString(PyExc_TypeError, "to_sqlite: files must be a list of bytes");
    return false;
  }
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(object); ++i) {
    PyObject* item = PyList_GET_ITEM(object, i);  // borrowed
    if (!PyBytes_Check(item)) {
      PyErr_SetString(PyExc_TypeError, "to_sqlite: files must be a list of bytes");
      return false;
    }
    out->emplace_back(PyBytes_AS_STRING(item), static_cast<size_t>(PyBytes_GET_SIZE(item)));
  }
  return true;
}

}  // namespace

PyObject* ToSqlite(PyObject*, PyObject* args) {
  PyObject* files_object = nullptr;
  PyObject* path_object = nullptr;
  PyObject* items_object = nullptr;
  if (!PyArg_ParseTuple(args, "OO!O:to_sqlite", &files_object, &PyBytes_Type, &path_object,
                        &items_object)) {
    return nullptr;
  }
  std::vector<std::string> files;
  std::vector<std::string> items;
  if (!ToBytesList(files_object, &files) || !ToStringList(items_object, "metrics", &items)) {
    return nullptr;
  }
  const std::string path(PyBytes_AS_STRING(path_object),
                         static_cast<size_t>(PyBytes_GET_SIZE(path_object)));
  Status status;
  Py_BEGIN_ALLOW_THREADS  // reading many files takes a while: other threads may run
      status = CatchOutOfMemory("writing '" + path + "'",
                                [&] { return viewer::WriteSqliteExport(path, files, items); });
  Py_END_ALLOW_THREADS if (!status.ok()) return RaiseReadError(status);
  Py_RETURN_NONE;
}

}  // namespace proton::python_viewer
